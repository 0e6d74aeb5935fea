extension Session {
    /// Starts loading the transport's system library on a background thread, so a program that
    /// knows it will send a request can overlap that load (about 8 ms) with its own start-up work.
    ///
    /// Calling it is optional and cheap; requests work the same without it. Stubbed requests never
    /// need it, so don't call it when everything will be stubbed.
    ///
    /// A program that calls it must call `finishTransportWarmUp()` before it exits.
    public static func warmUpTransport() {
        LibcurlPreload.start()
    }

    /// Waits until a load started by `warmUpTransport()` has finished; returns at once when none was
    /// started.
    ///
    /// Exiting while another thread is still inside `dlopen` runs the exit handlers of libraries
    /// that are half loaded and crashes now and then (SIGSEGV in about 1 exit in 20 here), so a
    /// program that may exit before its first request (a usage error, say) waits here first.
    public static func finishTransportWarmUp() {
        LibcurlPreload.wait()
    }
}
