// libFuzzer itself is linked by -sanitize=fuzzer, and `make fuzz` compiles this file with
// MOYA_FUZZING defined. In the package's ordinary builds the harnesses link too: this stand-in
// for libFuzzer's driver runs the fuzz function once on each file named on the command line, so a
// crashing input found earlier replays under a debugger without the fuzzer's build.
#include "CLibFuzzer.h"

#ifndef MOYA_FUZZING
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    int failed = 0;
    for (int index = 1; index < *argc; index++) {
        const char *path = (*argv)[index];
        FILE *file = fopen(path, "rb");
        if (file == NULL) {
            fprintf(stderr, "%s: cannot open %s\n", (*argv)[0], path);
            failed = 1;
            continue;
        }
        size_t capacity = 1 << 16, size = 0;
        uint8_t *data = malloc(capacity);
        size_t read;
        while (data != NULL && (read = fread(data + size, 1, capacity - size, file)) > 0) {
            size += read;
            if (size == capacity) {
                uint8_t *grown = realloc(data, capacity *= 2);
                if (grown == NULL) { free(data); data = NULL; }
                else data = grown;
            }
        }
        fclose(file);
        if (data == NULL) {
            fprintf(stderr, "%s: out of memory reading %s\n", (*argv)[0], path);
            failed = 1;
            continue;
        }
        callback(data, size);
        free(data);
        fprintf(stderr, "%s: ran %s (%zu bytes)\n", (*argv)[0], path, size);
    }
    return failed;
}
#endif
