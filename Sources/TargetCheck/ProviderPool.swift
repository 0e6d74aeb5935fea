import MoyaKit
import Synchronization
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

/// Two providers per distinct transport setting (cases may have their own timeouts), all over
/// MoyaKit's one shared transport: one tracks in-flight requests, so identical GETs and HEADs
/// checked at the same time are sent once; the other sends every request it is given, for the
/// requests that must reach the server as often as they are checked (`LiveCheck.mayShare`).
final class ProviderPool: Sendable {
    private struct Key: Hashable {
        var configuration: SessionConfiguration
        var tracksInflights: Bool
    }

    private let providers = Mutex<[Key: MoyaProvider<DynamicTarget>]>([:])
    private let plugins: [any PluginType]

    init(plugins: [any PluginType]) {
        self.plugins = plugins
    }

    /// The provider for `configuration`, made on first use; with `sharingIdenticalRequests`, one
    /// that sends identical requests in flight once.
    func provider(for configuration: SessionConfiguration, sharingIdenticalRequests: Bool) -> MoyaProvider<
        DynamicTarget
    > {
        let key = Key(configuration: configuration, tracksInflights: sharingIdenticalRequests)
        return providers.withLock { providers in
            if let existing = providers[key] { return existing }
            let provider = MoyaProvider<DynamicTarget>(
                endpointClosure: { $0.endpoint }, session: Session(configuration: configuration), plugins: plugins,
                trackInflights: sharingIdenticalRequests)
            providers[key] = provider
            return provider
        }
    }
}

/// `--rate N`: requests start at least 1/N seconds apart (a token bucket holding one token), so
/// a real API sees an even, polite load however many jobs run.
final class RateLimiter: Sendable {
    private let interval: Double
    private let nextStart = Mutex<ContinuousClock.Instant?>(nil)

    init(requestsPerSecond: Double) {
        interval = 1 / requestsPerSecond
    }

    /// Waits until the caller may start a request.
    func acquire() {
        let wait = nextStart.withLock { next -> Duration in
            let now = ContinuousClock.now
            let start = next.map { max($0, now) } ?? now
            next = start + .seconds(interval)
            return start - now
        }
        if wait > .zero { Self.sleep(wait) }
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 { request = remaining }
    }
}

/// The requests in flight, by item, so Ctrl-C cancels them all.
final class InflightRequests: Sendable {
    private struct State {
        var tokens: [Int: any Cancellable] = [:]
        var isCancelled = false
    }

    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func add(_ token: any Cancellable, for index: Int) {
        let cancelNow = state.withLock { state -> Bool in
            if !state.isCancelled { state.tokens[index] = token }
            return state.isCancelled
        }
        if cancelNow { token.cancel() }
    }

    func remove(_ index: Int) {
        _ = state.withLock { $0.tokens.removeValue(forKey: index) }
    }

    /// Cancels every request in flight and any started later.
    func cancelAll() {
        let tokens = state.withLock { state -> [any Cancellable] in
            state.isCancelled = true
            defer { state.tokens = [:] }
            return Array(state.tokens.values)
        }
        for token in tokens { token.cancel() }
    }
}
