#include "ccleanup.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLOT_COUNT 256

struct slot {
    _Atomic(char *) path;
    atomic_int is_directory;
};

static struct slot slots[SLOT_COUNT];
/// How many removals are running (a signal handler's never ends: it exits the process), so that
/// `moya_cleanup_forget` never frees a path a handler is reading.
static atomic_int removers;
#define CHILD_SLOT_COUNT 16
/// Process groups of running children, 0 when free.
static atomic_int children[CHILD_SLOT_COUNT];
static atomic_int notify = -1;
static struct termios terminal_settings;
/// The terminal to put back, -1 when none.
static atomic_int terminal_fd = -1;
static atomic_int graceful;
static atomic_int pending;

int moya_cleanup_register(const char *path, int is_directory) {
    char *copy = strdup(path);
    if (copy == NULL) return -1;
    for (int index = 0; index < SLOT_COUNT; index++) {
        char *expected = NULL;
        if (atomic_load(&slots[index].path) != NULL) continue;
        atomic_store(&slots[index].is_directory, is_directory);
        if (atomic_compare_exchange_strong(&slots[index].path, &expected, copy)) return index;
    }
    free(copy);
    return -1;
}

void moya_cleanup_forget(int slot) {
    if (slot < 0 || slot >= SLOT_COUNT) return;
    char *path = atomic_exchange(&slots[slot].path, NULL);
    if (path == NULL) return;
    while (atomic_load(&removers) > 0) sched_yield();
    free(path);
}

int moya_children_register(int group) {
    if (group <= 0) return -1;
    for (int index = 0; index < CHILD_SLOT_COUNT; index++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&children[index], &expected, group)) return index;
    }
    return -1;
}

void moya_children_forget(int slot) {
    if (slot < 0 || slot >= CHILD_SLOT_COUNT) return;
    atomic_store(&children[slot], 0);
}

static void kill_children(void) {
    for (int index = 0; index < CHILD_SLOT_COUNT; index++) {
        int group = atomic_load(&children[index]);
        if (group > 0) kill(-group, SIGKILL);
    }
}

void moya_cleanup_run(void) {
    atomic_fetch_add(&removers, 1);
    for (int index = 0; index < SLOT_COUNT; index++) {
        char *path = atomic_load(&slots[index].path);
        if (path != NULL && !atomic_load(&slots[index].is_directory)) unlink(path);
    }
    // Folders nest: each pass removes the innermost empty ones.
    for (int pass = 0; pass < 8; pass++) {
        int removed = 0;
        for (int index = SLOT_COUNT - 1; index >= 0; index--) {
            char *path = atomic_load(&slots[index].path);
            if (path != NULL && atomic_load(&slots[index].is_directory) && rmdir(path) == 0) removed++;
        }
        if (removed == 0) break;
    }
    atomic_fetch_sub(&removers, 1);
}

void moya_terminal_register(int fd, const struct termios *saved) {
    atomic_store(&terminal_fd, -1);
    terminal_settings = *saved;
    atomic_store(&terminal_fd, fd);
}

void moya_terminal_forget(void) {
    atomic_store(&terminal_fd, -1);
}

/// tcsetattr and write are async-signal-safe.
static void restore_terminal(void) {
    int fd = atomic_exchange(&terminal_fd, -1);
    if (fd < 0) return;
    tcsetattr(fd, TCSAFLUSH, &terminal_settings);
    ssize_t ignored = write(fd, "\n", 1);
    (void)ignored;
}

static void write_text(const char *text) {
    ssize_t ignored = write(2, text, strlen(text));
    (void)ignored;
}

static void handle(int number) {
    int saved = errno;
    int expected = 0;
    int fd = atomic_load(&notify);
    if (atomic_load(&graceful) && fd >= 0 && atomic_compare_exchange_strong(&pending, &expected, number)) {
        unsigned char byte = (unsigned char)number;
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
        errno = saved;
        return;
    }
    restore_terminal();
    kill_children();
    moya_cleanup_run();
    switch (number) {
    case SIGINT: write_text("moya-cli: error: interrupted\n"); break;
    case SIGTERM: write_text("moya-cli: error: terminated (SIGTERM)\n"); break;
    case SIGHUP: write_text("moya-cli: error: hung up (SIGHUP)\n"); break;
    default: break;
    }
    _exit(128 + number);
}

static atomic_int installed;

void moya_signals_ensure_installed(void) {
    if (atomic_load(&installed)) return;
    moya_signals_install(-1);
}

void moya_signals_install(int notify_fd) {
    atomic_store(&installed, 1);
    atomic_store(&notify, notify_fd);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handle;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
}

void moya_signals_set_graceful(int enabled) {
    atomic_store(&graceful, enabled);
}

int moya_signals_pending(void) {
    return atomic_load(&pending);
}
