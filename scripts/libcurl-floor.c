/* The floor of a sweep on libcurl: the same transfers as `check --live --jobs N`, through one
 * multi handle with N reused easy handles, bodies dropped, nothing else. Not a test; used in
 * bench/RESULTS.md (issue 16, sixth round) to tell libcurl's share of `curl --parallel`'s time
 * from its tool's.
 *
 *   cc -O2 -o /tmp/libcurl-floor scripts/libcurl-floor.c -lcurl
 *   /tmp/libcurl-floor URLS.txt 16      (one URL a line)
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t drop(char *data, size_t size, size_t count, void *user) {
    (void)data; (void)user;
    return size * count;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s URLS.txt PARALLEL\n", argv[0]); return 64; }
    FILE *file = fopen(argv[1], "r");
    if (!file) { perror(argv[1]); return 66; }
    int parallel = atoi(argv[2]), count = 0, capacity = 0, next = 0, running = 0, done = 0, failed = 0;
    char line[4096], **urls = NULL;
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line) continue;
        if (count == capacity) { capacity = capacity ? capacity * 2 : 1024; urls = realloc(urls, capacity * sizeof *urls); }
        urls[count++] = strdup(line);
    }
    fclose(file);
    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    for (int i = 0; i < parallel && next < count; i++) {
        CURL *easy = curl_easy_init();
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, drop);
        curl_easy_setopt(easy, CURLOPT_URL, urls[next++]);
        curl_multi_add_handle(multi, easy);
    }
    do {
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status >= 400) failed++;
            done++;
            curl_multi_remove_handle(multi, easy);
            if (next < count) {
                curl_easy_setopt(easy, CURLOPT_URL, urls[next++]);
                curl_multi_add_handle(multi, easy);
                running++;
            } else {
                curl_easy_cleanup(easy);
            }
        }
        if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    } while (running || next < count);
    printf("%d transfers, %d failed\n", done, failed);
    return failed ? 1 : 0;
}
