#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

// libcurl is loaded with dlopen on the first request, not linked: loading it and its 30-odd
// dependencies costs about 7 ms, which a stubbed call must not pay. The headers supply the types
// and constants only; every function is reached through the `ccurl_api` table filled by
// `ccurl_api_load`. Swift cannot call C variadic functions, so the variadic entry points
// (`curl_easy_setopt`, `curl_easy_getinfo`, `curl_multi_setopt`) get typed wrappers below.

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <pthread.h>

/// The libcurl functions MoyaKit uses, resolved with dlsym. Each field has the type of the
/// function's own prototype, so the table cannot drift from the header.
typedef struct ccurl_api {
    __typeof__(&curl_global_init) global_init;
    __typeof__(&curl_version_info) version_info;

    __typeof__(&curl_easy_init) easy_init;
    __typeof__(&curl_easy_cleanup) easy_cleanup;
    __typeof__(&curl_easy_setopt) easy_setopt;
    __typeof__(&curl_easy_getinfo) easy_getinfo;
    __typeof__(&curl_easy_perform) easy_perform;
    __typeof__(&curl_easy_strerror) easy_strerror;
    __typeof__(&curl_easy_pause) easy_pause;
    __typeof__(&curl_easy_reset) easy_reset;

    __typeof__(&curl_multi_init) multi_init;
    __typeof__(&curl_multi_cleanup) multi_cleanup;
    __typeof__(&curl_multi_add_handle) multi_add_handle;
    __typeof__(&curl_multi_remove_handle) multi_remove_handle;
    __typeof__(&curl_multi_perform) multi_perform;
    __typeof__(&curl_multi_poll) multi_poll;
    __typeof__(&curl_multi_wakeup) multi_wakeup;
    __typeof__(&curl_multi_info_read) multi_info_read;
    __typeof__(&curl_multi_strerror) multi_strerror;
    __typeof__(&curl_multi_setopt) multi_setopt;

    __typeof__(&curl_slist_append) slist_append;
    __typeof__(&curl_slist_free_all) slist_free_all;

    __typeof__(&curl_mime_init) mime_init;
    __typeof__(&curl_mime_addpart) mime_addpart;
    __typeof__(&curl_mime_name) mime_name;
    __typeof__(&curl_mime_data) mime_data;
    __typeof__(&curl_mime_filedata) mime_filedata;
    __typeof__(&curl_mime_data_cb) mime_data_cb;
    __typeof__(&curl_mime_filename) mime_filename;
    __typeof__(&curl_mime_type) mime_type;
    __typeof__(&curl_mime_free) mime_free;

    __typeof__(&curl_share_init) share_init;
    __typeof__(&curl_share_setopt) share_setopt;
    __typeof__(&curl_share_cleanup) share_cleanup;
} ccurl_api;

/// Opens libcurl.so.4 and fills `api`. Returns 0 on success; otherwise -1 with the reason in `err`.
/// The library stays open for the life of the process.
static inline int ccurl_api_load(ccurl_api *api, char *err, size_t errlen) {
    void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(err, errlen, "%s", reason ? reason : "dlopen(libcurl.so.4) failed");
        return -1;
    }
#define CCURL_LOAD(field, symbol)                                                     \
    api->field = (__typeof__(api->field))dlsym(library, #symbol);                     \
    if (api->field == NULL) {                                                         \
        snprintf(err, errlen, "libcurl.so.4 has no symbol %s (libcurl too old?)", #symbol); \
        return -1;                                                                    \
    }
    CCURL_LOAD(global_init, curl_global_init)
    CCURL_LOAD(version_info, curl_version_info)
    CCURL_LOAD(easy_init, curl_easy_init)
    CCURL_LOAD(easy_cleanup, curl_easy_cleanup)
    CCURL_LOAD(easy_setopt, curl_easy_setopt)
    CCURL_LOAD(easy_getinfo, curl_easy_getinfo)
    CCURL_LOAD(easy_perform, curl_easy_perform)
    CCURL_LOAD(easy_strerror, curl_easy_strerror)
    CCURL_LOAD(easy_pause, curl_easy_pause)
    CCURL_LOAD(easy_reset, curl_easy_reset)
    CCURL_LOAD(multi_init, curl_multi_init)
    CCURL_LOAD(multi_cleanup, curl_multi_cleanup)
    CCURL_LOAD(multi_add_handle, curl_multi_add_handle)
    CCURL_LOAD(multi_remove_handle, curl_multi_remove_handle)
    CCURL_LOAD(multi_perform, curl_multi_perform)
    CCURL_LOAD(multi_poll, curl_multi_poll)
    CCURL_LOAD(multi_wakeup, curl_multi_wakeup)
    CCURL_LOAD(multi_info_read, curl_multi_info_read)
    CCURL_LOAD(multi_strerror, curl_multi_strerror)
    CCURL_LOAD(multi_setopt, curl_multi_setopt)
    CCURL_LOAD(slist_append, curl_slist_append)
    CCURL_LOAD(slist_free_all, curl_slist_free_all)
    CCURL_LOAD(mime_init, curl_mime_init)
    CCURL_LOAD(mime_addpart, curl_mime_addpart)
    CCURL_LOAD(mime_name, curl_mime_name)
    CCURL_LOAD(mime_data, curl_mime_data)
    CCURL_LOAD(mime_filedata, curl_mime_filedata)
    CCURL_LOAD(mime_data_cb, curl_mime_data_cb)
    CCURL_LOAD(mime_filename, curl_mime_filename)
    CCURL_LOAD(mime_type, curl_mime_type)
    CCURL_LOAD(mime_free, curl_mime_free)
    CCURL_LOAD(share_init, curl_share_init)
    CCURL_LOAD(share_setopt, curl_share_setopt)
    CCURL_LOAD(share_cleanup, curl_share_cleanup)
#undef CCURL_LOAD
    return 0;
}

// MARK: - Non-variadic calls (so Swift never unwraps a function pointer)

static inline CURLcode ccurl_global_init_all(const ccurl_api *api) { return api->global_init(CURL_GLOBAL_ALL); }
static inline const char *ccurl_version(const ccurl_api *api) { return api->version_info(CURLVERSION_NOW)->version; }
static inline int ccurl_version_features(const ccurl_api *api) { return api->version_info(CURLVERSION_NOW)->features; }

static inline CURL *ccurl_easy_init(const ccurl_api *api) { return api->easy_init(); }
static inline void ccurl_easy_cleanup(const ccurl_api *api, CURL *h) { api->easy_cleanup(h); }
static inline void ccurl_easy_reset(const ccurl_api *api, CURL *h) { api->easy_reset(h); }
static inline const char *ccurl_easy_strerror(const ccurl_api *api, CURLcode code) { return api->easy_strerror(code); }
static inline CURLcode ccurl_easy_pause(const ccurl_api *api, CURL *h, int bitmask) { return api->easy_pause(h, bitmask); }

static inline CURLM *ccurl_multi_init(const ccurl_api *api) { return api->multi_init(); }
static inline CURLMcode ccurl_multi_cleanup(const ccurl_api *api, CURLM *m) { return api->multi_cleanup(m); }
static inline CURLMcode ccurl_multi_add_handle(const ccurl_api *api, CURLM *m, CURL *h) { return api->multi_add_handle(m, h); }
static inline CURLMcode ccurl_multi_remove_handle(const ccurl_api *api, CURLM *m, CURL *h) { return api->multi_remove_handle(m, h); }
static inline CURLMcode ccurl_multi_perform(const ccurl_api *api, CURLM *m, int *running) { return api->multi_perform(m, running); }
static inline CURLMcode ccurl_multi_poll(const ccurl_api *api, CURLM *m, int timeout_ms) { return api->multi_poll(m, NULL, 0, timeout_ms, NULL); }
/// `curl_multi_poll` that also waits for `count` file descriptors of the caller's (`revents` set on return).
static inline CURLMcode ccurl_multi_poll_fds(const ccurl_api *api, CURLM *m, struct curl_waitfd *fds, unsigned int count, int timeout_ms) { return api->multi_poll(m, fds, count, timeout_ms, NULL); }
static inline CURLMcode ccurl_multi_wakeup(const ccurl_api *api, CURLM *m) { return api->multi_wakeup(m); }
static inline const char *ccurl_multi_strerror(const ccurl_api *api, CURLMcode code) { return api->multi_strerror(code); }

/// The next finished transfer, or NULL. Flattens CURLMsg's union for Swift.
static inline CURL *ccurl_multi_next_done(const ccurl_api *api, CURLM *m, CURLcode *result) {
    int remaining = 0;
    CURLMsg *message;
    while ((message = api->multi_info_read(m, &remaining)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *result = message->data.result;
            return message->easy_handle;
        }
    }
    return NULL;
}

static inline struct curl_slist *ccurl_slist_append(const ccurl_api *api, struct curl_slist *list, const char *s) { return api->slist_append(list, s); }
static inline void ccurl_slist_free_all(const ccurl_api *api, struct curl_slist *list) { api->slist_free_all(list); }

static inline curl_mime *ccurl_mime_init(const ccurl_api *api, CURL *h) { return api->mime_init(h); }
static inline curl_mimepart *ccurl_mime_addpart(const ccurl_api *api, curl_mime *mime) { return api->mime_addpart(mime); }
static inline CURLcode ccurl_mime_name(const ccurl_api *api, curl_mimepart *part, const char *name) { return api->mime_name(part, name); }
static inline CURLcode ccurl_mime_data(const ccurl_api *api, curl_mimepart *part, const char *data, size_t size) { return api->mime_data(part, data, size); }
static inline CURLcode ccurl_mime_filedata(const ccurl_api *api, curl_mimepart *part, const char *path) { return api->mime_filedata(part, path); }
static inline CURLcode ccurl_mime_data_cb(const ccurl_api *api, curl_mimepart *part, curl_off_t size, curl_read_callback read, void *arg) { return api->mime_data_cb(part, size, read, NULL, NULL, arg); }
static inline CURLcode ccurl_mime_filename(const ccurl_api *api, curl_mimepart *part, const char *name) { return api->mime_filename(part, name); }
static inline CURLcode ccurl_mime_type(const ccurl_api *api, curl_mimepart *part, const char *type) { return api->mime_type(part, type); }
static inline void ccurl_mime_free(const ccurl_api *api, curl_mime *mime) { api->mime_free(mime); }

// MARK: - Typed wrappers for the variadic calls

static inline CURLcode ccurl_easy_setopt_long(const ccurl_api *api, CURL *h, CURLoption opt, long value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_ptr(const ccurl_api *api, CURL *h, CURLoption opt, void *value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_string(const ccurl_api *api, CURL *h, CURLoption opt, const char *value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_slist(const ccurl_api *api, CURL *h, CURLoption opt, struct curl_slist *value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_mime(const ccurl_api *api, CURL *h, CURLoption opt, curl_mime *value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_off_t(const ccurl_api *api, CURL *h, CURLoption opt, curl_off_t value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_write_cb(const ccurl_api *api, CURL *h, CURLoption opt, curl_write_callback value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_read_cb(const ccurl_api *api, CURL *h, CURLoption opt, curl_read_callback value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_header_cb(const ccurl_api *api, CURL *h, CURLoption opt, curl_write_callback value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_seek_cb(const ccurl_api *api, CURL *h, CURLoption opt, curl_seek_callback value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_xferinfo_cb(const ccurl_api *api, CURL *h, CURLoption opt, curl_xferinfo_callback value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_prereq_cb(const ccurl_api *api, CURL *h, CURLoption opt, curl_prereq_callback value) { return api->easy_setopt(h, opt, value); }
static inline CURLcode ccurl_easy_setopt_debug_cb(const ccurl_api *api, CURL *h, CURLoption opt, curl_debug_callback value) { return api->easy_setopt(h, opt, value); }

static inline CURLcode ccurl_easy_getinfo_long(const ccurl_api *api, CURL *h, CURLINFO info, long *value) { return api->easy_getinfo(h, info, value); }
static inline CURLcode ccurl_easy_getinfo_double(const ccurl_api *api, CURL *h, CURLINFO info, double *value) { return api->easy_getinfo(h, info, value); }
static inline CURLcode ccurl_easy_getinfo_string(const ccurl_api *api, CURL *h, CURLINFO info, char **value) { return api->easy_getinfo(h, info, value); }
static inline CURLcode ccurl_easy_getinfo_off_t(const ccurl_api *api, CURL *h, CURLINFO info, curl_off_t *value) { return api->easy_getinfo(h, info, value); }

static inline CURLcode ccurl_easy_getinfo_slist(const ccurl_api *api, CURL *h, CURLINFO info, struct curl_slist **value) { return api->easy_getinfo(h, info, value); }

/// CURLAUTH_DIGEST, a macro Swift does not import.
static inline long ccurl_auth_digest(void) { return (long)CURLAUTH_DIGEST; }

// MARK: - A cookie store shared by easy handles

/// A share handle holding one cookie store, and the locks libcurl takes around it: easy handles
/// on different threads (the transport's, and the caller's reading the store) may touch it.
typedef struct ccurl_cookie_share {
    CURLSH *share;
    pthread_mutex_t locks[CURL_LOCK_DATA_LAST];
} ccurl_cookie_share;

static inline void ccurl_cookie_share_lock(CURL *h, curl_lock_data data, curl_lock_access access, void *userptr) {
    (void)h;
    (void)access;
    pthread_mutex_lock(&((ccurl_cookie_share *)userptr)->locks[data]);
}

static inline void ccurl_cookie_share_unlock(CURL *h, curl_lock_data data, void *userptr) {
    (void)h;
    pthread_mutex_unlock(&((ccurl_cookie_share *)userptr)->locks[data]);
}

/// A new share handle sharing cookies (CURL_LOCK_DATA_COOKIE), or NULL.
static inline ccurl_cookie_share *ccurl_cookie_share_create(const ccurl_api *api) {
    ccurl_cookie_share *cookies = calloc(1, sizeof(ccurl_cookie_share));
    if (cookies == NULL) return NULL;
    for (int index = 0; index < CURL_LOCK_DATA_LAST; index++) pthread_mutex_init(&cookies->locks[index], NULL);
    cookies->share = api->share_init();
    if (cookies->share == NULL
        || api->share_setopt(cookies->share, CURLSHOPT_USERDATA, (void *)cookies) != CURLSHE_OK
        || api->share_setopt(cookies->share, CURLSHOPT_LOCKFUNC, ccurl_cookie_share_lock) != CURLSHE_OK
        || api->share_setopt(cookies->share, CURLSHOPT_UNLOCKFUNC, ccurl_cookie_share_unlock) != CURLSHE_OK
        || api->share_setopt(cookies->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE) != CURLSHE_OK) {
        if (cookies->share != NULL) api->share_cleanup(cookies->share);
        free(cookies);
        return NULL;
    }
    return cookies;
}

/// Frees the share unless an easy handle still uses it (then it is left as it is); returns whether it was freed.
static inline int ccurl_cookie_share_free(const ccurl_api *api, ccurl_cookie_share *cookies) {
    if (api->share_cleanup(cookies->share) != CURLSHE_OK) return 0;
    for (int index = 0; index < CURL_LOCK_DATA_LAST; index++) pthread_mutex_destroy(&cookies->locks[index]);
    free(cookies);
    return 1;
}

static inline CURLMcode ccurl_multi_setopt_long(const ccurl_api *api, CURLM *m, CURLMoption opt, long value) { return api->multi_setopt(m, opt, value); }

#endif
