#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Session {
    /// Starts loading the transport's system library on a background thread, so a program that
    /// knows it will send a request can overlap that load (about 8 ms) with its own start-up work.
    ///
    /// Calling it is optional and cheap; requests work the same without it. Stubbed requests never
    /// need it, so don't call it when everything will be stubbed. A thread of its own starts at
    /// once, where a Dispatch queue would first have to start its worker pool (up to 3 ms here).
    public static func warmUpTransport() {
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { _ in
            _ = TransportLoop.shared
            return nil
        }, nil)
        // Without the thread, the first request loads the library itself: slower, not broken.
        guard status == 0 else { return }
        pthread_detach(thread)
    }
}
