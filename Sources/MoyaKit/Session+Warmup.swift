import Dispatch

extension Session {
    /// Starts loading the transport's system library on a background thread, so a program that
    /// knows it will send a request can overlap that load (about 8 ms) with its own start-up work.
    ///
    /// Calling it is optional and cheap; requests work the same without it. Stubbed requests never
    /// need it, so don't call it when everything will be stubbed.
    public static func warmUpTransport() {
        DispatchQueue.global(qos: .userInitiated).async {
            _ = TransportLoop.shared
        }
    }
}
