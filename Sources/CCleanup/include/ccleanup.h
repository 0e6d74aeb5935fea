#ifndef CCLEANUP_H
#define CCLEANUP_H

#include <termios.h>

/// Paths this process created and must not leave behind if a signal ends it (temporary files of
/// outputs being written, folders made for them), and the handlers of SIGINT, SIGTERM and SIGHUP
/// that remove them. Written in C because a signal handler may only call async-signal-safe
/// functions (unlink, rmdir, write, _exit) and must not take locks or allocate.

/// Registers `path` (copied) for removal if a signal ends the process: a file is unlinked, a
/// folder removed if empty. Returns a slot for `moya_cleanup_forget`, or -1 when every slot is
/// taken (the path is then not protected).
int moya_cleanup_register(const char *path, int is_directory);

/// Forgets a registered path (its owner removed it or kept it on purpose). Safe from any thread.
void moya_cleanup_forget(int slot);

/// Registers the process group `group` (a child started as the leader of a group of its own, such
/// as a token command) to be killed with SIGKILL if a signal ends this process, so no program it
/// started outlives it. Returns a slot for `moya_children_forget`, or -1 when every slot is taken.
int moya_children_register(int group);

/// Forgets a registered process group (it ended and was waited for). Safe from any thread.
void moya_children_forget(int slot);

/// Registers the terminal `fd` and its settings `saved` (copied) to be put back, with a line
/// break, if a signal ends the process: a password prompt turns echo off, and a Ctrl-C at the
/// prompt must not leave the user's shell without it. One terminal at a time.
void moya_terminal_register(int fd, const struct termios *saved);

/// Forgets the registered terminal (its settings were put back).
void moya_terminal_forget(void);

/// Removes every registered path now: files first, then folders, innermost first.
void moya_cleanup_run(void);

/// Installs the handlers of SIGINT, SIGTERM and SIGHUP, and ignores SIGPIPE (a write to a closed
/// pipe then fails with EPIPE, which the writer reports). `notify_fd` is the write end of a
/// non-blocking pipe: while graceful mode is on, the first signal writes its number there and
/// returns, so whoever polls the pipe cancels what is in flight and exits with 128 + the signal.
/// Otherwise, or on a second signal, the handler removes the registered paths and ends the
/// process at once with 128 + the signal. Handlers are installed without SA_RESTART, so a
/// blocking call (open of a FIFO, a write to a full pipe) returns EINTR.
void moya_signals_install(int notify_fd);

/// Installs the handlers as `moya_signals_install(-1)` does (a signal removes the registered
/// paths, kills the registered children and ends the process), unless they are installed already.
/// For code that starts a child before the command has installed its handlers.
void moya_signals_ensure_installed(void);

/// Turns graceful mode on (1) or off (0); see `moya_signals_install`.
void moya_signals_set_graceful(int enabled);

/// The number of a signal received in graceful mode and not yet acted on, 0 if none.
int moya_signals_pending(void);

#endif
