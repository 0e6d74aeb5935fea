#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (or, in ordinary builds, CLibFuzzer.c's replay of named files), for a program with a `main` of its own: SwiftPM names each executable's
/// entry point `<Module>_main` and points `main` at it, so libFuzzer's own `main` is never linked.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
