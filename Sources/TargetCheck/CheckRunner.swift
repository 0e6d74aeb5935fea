import Dispatch
import MoyaKit
import TargetSpec

/// Runs a plan: offline (every sample through the stub pipeline) or live, `jobs` items at a
/// time, handing each result to `report` as it comes. `cancel()` (from a signal watcher, say)
/// cancels what is in flight and starts nothing more.
public final class CheckRunner: Sendable {
    /// The items to check, in plan order.
    public let items: [CheckItem]
    /// How they are checked.
    public let configuration: CheckConfiguration
    private let inflight = InflightRequests()

    /// Creates a runner for `items`.
    public init(items: [CheckItem], configuration: CheckConfiguration) {
        self.items = items
        self.configuration = configuration
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { inflight.isCancelled }

    /// Cancels every request in flight and any started later; `run` then returns `nil`.
    public func cancel() {
        inflight.cancelAll()
    }

    /// Checks every item; returns the results in plan order, or `nil` when cancelled. `report`
    /// receives each result (with its plan index) as soon as it is known, on any thread.
    public func run(report: @escaping @Sendable (Int, CheckResult) -> Void) -> [CheckResult]? {
        let settings = configuration
        let queue = DispatchQueue(label: "moya-cli.check", attributes: .concurrent)
        let slots = DispatchSemaphore(value: settings.jobs)
        let group = DispatchGroup()
        let inflight = self.inflight
        let collected = ResultCollector(count: items.count)

        let offline = settings.isLive ? nil : SampleCheck(settings: settings)
        let live = settings.isLive ? LiveCheck(
            settings: settings, providers: ProviderPool(plugins: settings.plugins),
            limiter: settings.rate.map { RateLimiter(requestsPerSecond: $0) }, inflight: inflight, queue: queue) : nil

        for (index, item) in items.enumerated() {
            slots.wait()
            if inflight.isCancelled {
                slots.signal()
                break
            }
            group.enter()
            let finish: @Sendable (CheckResult) -> Void = { result in
                collected.store(result, at: index)
                report(index, result)
                slots.signal()
                group.leave()
            }
            if let reason = item.notCoveredReason {
                finish(.notCovered(reason))
            } else if let live {
                queue.async { live.start(item, index: index, completion: finish) }
            } else if let offline {
                queue.async { finish(offline.run(item, index: index)) }
            }
        }
        group.wait()
        if inflight.isCancelled { return nil }
        return collected.results
    }
}
