import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Session {
    /// Whether `warmUpTransport()` started a load.
    private static let warmUpStarted = Atomic<Bool>(false)

    /// Starts loading the transport's system library on a background thread, so a program that
    /// knows it will send a request can overlap that load (about 8 ms) with its own start-up work.
    ///
    /// Calling it is optional and cheap; requests work the same without it. Stubbed requests never
    /// need it, so don't call it when everything will be stubbed. A thread of its own starts at
    /// once, where a Dispatch queue would first have to start its worker pool (up to 3 ms here).
    ///
    /// A program that calls it must call `finishTransportWarmUp()` before it exits.
    public static func warmUpTransport() {
        guard !warmUpStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { _ in
            _ = TransportLoop.shared
            return nil
        }, nil)
        // Without the thread, the first request loads the library itself: slower, not broken.
        guard status == 0 else { return }
        pthread_detach(thread)
    }

    /// Waits until a load started by `warmUpTransport()` has finished; returns at once when none was
    /// started.
    ///
    /// Exiting while another thread is still inside `dlopen` runs the exit handlers of libraries
    /// that are half loaded and crashes now and then (SIGSEGV in about 1 exit in 20 here), so a
    /// program that may exit before its first request (a usage error, say) waits here first.
    public static func finishTransportWarmUp() {
        guard warmUpStarted.load(ordering: .acquiring) else { return }
        // Swift runs a `static let` initializer once; a second caller blocks until it is done.
        _ = TransportLoop.shared
    }
}
