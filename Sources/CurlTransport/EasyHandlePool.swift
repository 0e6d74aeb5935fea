import CCurl
import Synchronization

/// The easy handles of finished transfers, kept for the next ones.
///
/// Creating a handle (`curl_easy_init` and the options every request shares) and cleaning it up
/// cost a small request about as much as reading its response; a sweep of thousands of requests
/// makes and drops one per request. A handle given back here goes to a request of the shape it
/// is configured for (`EasyHandle.RequestShape`), which sets only its URL; any other request
/// resets it (`curl_easy_reset`: every option back to its default, the connections and caches
/// libcurl shares kept) on the thread that takes it, not the one that drives the transfers, and
/// sets it up as a new one would be.
final class EasyHandlePool: Sendable {
    /// Handles kept at most: as many as transfers may run on their own connections.
    static let capacity = TransportLoop.maximumConnections

    private let handles = Mutex<[EasyHandle.Reusable]>([])

    /// A handle ready for a new request of `shape`: a kept one configured for that shape, which
    /// then needs only the request's URL (`isConfigured`); else a kept one, reset; else a new one.
    ///
    /// A reset handle must take every option as a new one does. libcurl (7.88) refuses a new
    /// receive buffer size (`CURLOPT_BUFFERSIZE`) while a handle still holds the buffer of its
    /// last transfer, which it frees when a transfer ends normally but not after every failure;
    /// a handle that refuses it is cleaned up and a new one made.
    func take(curl: Libcurl, shape: EasyHandle.RequestShape? = nil) throws(TransportError) -> (
        handle: EasyHandle, isConfigured: Bool
    ) {
        if let shape,
            let kept = handles.withLock({ handles -> EasyHandle.Reusable? in
                guard let index = handles.lastIndex(where: { $0.handle.isConfigured(for: shape) }) else { return nil }
                return handles.remove(at: index)
            })
        {
            kept.handle.prepareForSameShape()
            return (kept.handle, true)
        }
        while let kept = handles.withLock({ $0.popLast() }) {
            let handle = kept.handle
            guard (try? handle.prepareForReuse()) != nil,
                (try? handle.set(CURLOPT_BUFFERSIZE, EasyHandle.receiveBufferSize)) != nil
            else { continue }
            return (handle, false)
        }
        return (try EasyHandle(curl: curl), false)
    }

    /// Keeps `handle`, which no transfer uses any more (the loop has removed it from the multi
    /// handle, and its transfer cleared the delegate), for a later request; beyond `capacity` it
    /// is cleaned up. A handle whose transfer failed or was cancelled (`endedWell` false) is
    /// reset before its next use, whatever its shape.
    func giveBack(_ handle: EasyHandle, endedWell: Bool) {
        if !endedWell { handle.forgetShape() }
        var handle: EasyHandle? = handle
        handles.withLock { handles in
            guard handles.count < Self.capacity, let kept = handle.take() else { return }
            handles.append(EasyHandle.Reusable(handle: kept))
        }
    }

    /// The next kept handle, as kept (not reset); for tests that need a new handle.
    func takeKeptForTesting() throws(TransportError) -> EasyHandle {
        guard let kept = handles.withLock({ $0.popLast() }) else {
            throw TransportError(kind: .other, message: "no handle kept")
        }
        return kept.handle
    }
}
