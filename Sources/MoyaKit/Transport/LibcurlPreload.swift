import CCurl
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Loading libcurl ahead of the first request, on a thread of its own (`Session.warmUpTransport()`).
///
/// The thread runs C only (`ccurl_preload_start`): dlopen and `curl_global_init`. Everything that
/// calls into libcurl first waits for it (`Libcurl.load`), so `curl_global_init` never runs on two
/// threads at once, and so does the process before it exits.
enum LibcurlPreload {
    private enum State {
        case notStarted
        case running(pthread_t)
        case finished
    }

    /// One lock for starting and joining, so no caller can slip between the two.
    private static let state = Mutex(State.notStarted)

    /// Starts the preload, at most once per process.
    static func start() {
        state.withLock { state in
            guard case .notStarted = state else { return }
            var created = pthread_t()
            // Without the thread, the first request loads the library itself: slower, not broken.
            state = ccurl_preload_start(&created) == 0 ? .running(created) : .finished
        }
    }

    /// Returns once the preload (if one was started) has finished. The lock is held while joining,
    /// so a second caller also waits for the preload to end.
    static func wait() {
        state.withLock { state in
            guard case .running(let thread) = state else { return }
            pthread_join(thread, nil)
            state = .finished
        }
    }
}
