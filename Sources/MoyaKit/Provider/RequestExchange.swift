import Dispatch
import Synchronization

/// One exchange — a network request or a stub — and the callers waiting for its result.
///
/// Without `trackInflights` an exchange has one caller. With it, callers asking for an endpoint
/// already in flight join its exchange, so they share one request and one result. A caller that
/// cancels while others still wait leaves alone (its completion gets a cancellation error at
/// once); when the last caller cancels, the exchange itself is cancelled.
final class RequestExchange: Sendable {
    /// Hands a result to one caller (on its queue, through `process`, to its completion), told
    /// the queue it is called on, if any: a caller whose queue it is runs at once.
    typealias Deliver = @Sendable (Result<Response, MoyaError>, _ runningOn: DispatchQueue?) -> Void
    /// Hands transfer progress to one caller.
    typealias ProgressHandler = @Sendable (TransferProgress) -> Void

    struct Caller: Sendable {
        let id: Int
        let progress: ProgressHandler?
        let deliver: Deliver
    }

    private struct State {
        var callers: [Caller]
        var nextID: Int
        var isFinished = false
        var isCancelled = false
        var inner: (any Cancellable)?
    }

    private let state: Mutex<State>
    /// How many callers came with a progress handler: without any, progress reports (libcurl's
    /// frequent counters) end here without taking the lock.
    private let progressCallers = Atomic<Int>(0)
    /// Called once the exchange takes no more callers (finishing or cancelled): the registry
    /// forgets it, so later identical requests start a fresh exchange.
    private let onEnd: @Sendable (RequestExchange) -> Void

    /// Creates an exchange with its first caller, whose id is 0.
    init(
        firstProgress: ProgressHandler?, firstDeliver: @escaping Deliver,
        onEnd: @escaping @Sendable (RequestExchange) -> Void
    ) {
        state = Mutex(State(callers: [Caller(id: 0, progress: firstProgress, deliver: firstDeliver)], nextID: 1))
        if firstProgress != nil { progressCallers.store(1, ordering: .releasing) }
        self.onEnd = onEnd
    }

    /// Adds a caller and returns its id, or `nil` when the exchange is ending.
    func addCaller(progress: ProgressHandler?, deliver: @escaping Deliver) -> Int? {
        state.withLock { state in
            guard !state.isFinished, !state.isCancelled else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.callers.append(Caller(id: id, progress: progress, deliver: deliver))
            if progress != nil { progressCallers.add(1, ordering: .releasing) }
            return id
        }
    }

    /// How many callers wait for the result.
    var callerCount: Int { state.withLock { $0.callers.count } }

    /// Whether every caller cancelled.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Keeps the running transfer so cancelling can reach it; cancels it at once if every caller
    /// already cancelled.
    func attach(_ inner: any Cancellable) {
        let cancelNow = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.inner = inner
            return state.isCancelled
        }
        if cancelNow { inner.cancel() }
    }

    /// Forwards transfer progress to every caller that asked for it.
    func reportProgress(_ progress: TransferProgress) {
        guard progressCallers.load(ordering: .acquiring) > 0 else { return }
        // One caller (nearly always): its handler, without making an array for each report.
        let (only, handlers) = state.withLock { state -> (ProgressHandler?, [ProgressHandler]) in
            state.callers.count == 1 ? (state.callers[0].progress, []) : (nil, state.callers.compactMap(\.progress))
        }
        only?(progress)
        for handler in handlers { handler(progress) }
    }

    /// Ends the exchange: every caller still waiting receives `result`, once. `queue` is the
    /// queue this runs on, if any.
    func finish(_ result: Result<Response, MoyaError>, on queue: DispatchQueue? = nil) {
        onEnd(self)
        let callers = state.withLock { state -> [Caller] in
            guard !state.isFinished else { return [] }
            state.isFinished = true
            state.inner = nil
            defer { state.callers = [] }
            return state.callers
        }
        for caller in callers { caller.deliver(result, queue) }
    }

    /// Cancels the caller `id` (see the type's documentation).
    func cancelCaller(_ id: Int, cancellation: Result<Response, MoyaError>) {
        enum Action {
            case nothing
            case deliverAlone(Caller)
            case cancelExchange((any Cancellable)?)
        }
        let action = state.withLock { state -> Action in
            guard !state.isFinished, let index = state.callers.firstIndex(where: { $0.id == id }) else {
                return .nothing
            }
            if state.callers.count > 1 {
                return .deliverAlone(state.callers.remove(at: index))
            }
            guard !state.isCancelled else { return .nothing }
            state.isCancelled = true
            return .cancelExchange(state.inner)
        }
        switch action {
        case .nothing:
            break
        case .deliverAlone(let caller):
            caller.deliver(cancellation, nil)
        case .cancelExchange(let inner):
            onEnd(self)
            // Without a transfer yet (the request closure is still running), the provider
            // sees `isCancelled` when it is about to start one.
            inner?.cancel()
        }
    }
}

/// The `Cancellable` a caller gets: cancels that caller only.
final class CallerToken: Cancellable {
    private let exchange: RequestExchange
    private let id: Int
    private let cancelled = Mutex(false)

    init(exchange: RequestExchange, id: Int) {
        self.exchange = exchange
        self.id = id
    }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    func cancel() {
        let wasCancelled = cancelled.withLock { flag -> Bool in
            defer { flag = true }
            return flag
        }
        guard !wasCancelled else { return }
        exchange.cancelCaller(id, cancellation: .failure(MoyaError.cancellation))
    }
}

/// The `Cancellable` of a caller whose exchange is known only once the request closure and the
/// plugins have made its request (`trackInflights` coalesces on that request). A cancel that comes
/// first is remembered and carried out when the caller joins.
final class PendingCaller: Cancellable {
    private enum State {
        case waiting(cancelled: Bool)
        case joined(CallerToken)
        case failed(cancelled: Bool)
    }

    private let state = Mutex(State.waiting(cancelled: false))

    var isCancelled: Bool {
        state.withLock { state in
            switch state {
            case .waiting(let cancelled), .failed(let cancelled): cancelled
            case .joined(let token): token.isCancelled
            }
        }
    }

    func cancel() {
        let token = state.withLock { state -> CallerToken? in
            switch state {
            case .waiting:
                state = .waiting(cancelled: true)
                return nil
            case .failed: return nil
            case .joined(let token): return token
            }
        }
        token?.cancel()
    }

    /// The caller joined an exchange; a cancel that came first reaches it now.
    func joined(_ token: CallerToken) {
        let cancelNow = state.withLock { state -> Bool in
            guard case .waiting(let cancelled) = state else { return false }
            state = .joined(token)
            return cancelled
        }
        if cancelNow { token.cancel() }
    }

    /// No request could be made: `deliver` reports it, told whether the caller cancelled first.
    func failed(_ deliver: (_ cancelled: Bool) -> Void) {
        let cancelled = state.withLock { state -> Bool? in
            guard case .waiting(let cancelled) = state else { return nil }
            state = .failed(cancelled: cancelled)
            return cancelled
        }
        if let cancelled { deliver(cancelled) }
    }
}

extension MoyaError {
    /// The error a cancelled request completes with.
    static var cancellation: MoyaError {
        .underlying(TransportError(kind: .cancelled, message: "The request was cancelled."), nil)
    }
}
