/*
 * The libyaml baseline for the target-file load budget: reads FILE into memory, then pulls every
 * event from it RUNS times (default 10) and prints the best and median time of one pass.
 *
 *   cc -O2 scripts/yaml-parse-baseline.c -o /tmp/yaml-parse-baseline -lyaml
 *   /tmp/yaml-parse-baseline big.yaml [RUNS]
 *
 * Compare with `swift test -c release --filter YAMLPerformance` (MOYA_YAML_BENCH_FILE=big.yaml),
 * which times YAMLLoader.load on the same bytes the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <yaml.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s FILE [RUNS]\n", argv[0]); return 64; }
    int runs = argc > 2 ? atoi(argv[2]) : 10;
    if (runs < 1) runs = 1;
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 66; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(size > 0 ? size : 1);
    if (!bytes || fread(bytes, 1, size, file) != (size_t)size) { perror("read"); return 74; }
    fclose(file);

    double *times = malloc(sizeof(double) * runs);
    long events = 0;
    for (int run = 0; run < runs; run++) {
        double start = now_ms();
        yaml_parser_t parser;
        yaml_parser_initialize(&parser);
        yaml_parser_set_input_string(&parser, bytes, size);
        events = 0;
        for (;;) {
            yaml_event_t event;
            if (!yaml_parser_parse(&parser, &event)) {
                fprintf(stderr, "%s:%zu:%zu: %s\n", argv[1], parser.problem_mark.line + 1,
                        parser.problem_mark.column + 1, parser.problem);
                return 65;
            }
            int done = event.type == YAML_STREAM_END_EVENT;
            yaml_event_delete(&event);
            events++;
            if (done) break;
        }
        yaml_parser_delete(&parser);
        times[run] = now_ms() - start;
    }
    qsort(times, runs, sizeof(double), compare);
    printf("libyaml: %ld bytes, %ld events, best %.2f ms, median %.2f ms over %d runs\n",
           size, events, times[0], times[runs / 2], runs);
    free(times);
    free(bytes);
    return 0;
}
