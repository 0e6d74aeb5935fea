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
    /// The preload thread, until someone has joined it.
    private static let thread = Mutex<pthread_t?>(nil)
    /// Whether a preload was ever started (so `wait()` on the common stubbed path takes no lock).
    private static let started = Atomic<Bool>(false)

    /// Starts the preload, once.
    static func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        thread.withLock { slot in
            var created = pthread_t()
            // Without the thread, the first request loads the library itself: slower, not broken.
            if ccurl_preload_start(&created) == 0 { slot = created }
        }
    }

    /// Returns once the preload (if one was started) has finished.
    static func wait() {
        guard started.load(ordering: .acquiring) else { return }
        // The lock is held while joining, so a second caller also waits for the preload to end.
        thread.withLock { slot in
            guard let running = slot else { return }
            pthread_join(running, nil)
            slot = nil
        }
    }
}
