import Dispatch
import MoyaKit
import TargetSpec

/// Runs a plan: offline (every sample through the stub pipeline) or live, `--jobs` items at a
/// time, handing each result to `report` as it comes; Ctrl-C cancels what is in flight.
struct CheckRunner {
    var items: [CheckItem]
    var settings: CheckSettings

    /// Checks every item; returns the results in plan order, or `nil` when interrupted.
    func run(report: @escaping @Sendable (Int, CheckResult) -> Void) -> [CheckResult]? {
        let queue = DispatchQueue(label: "moya-cli.check", attributes: .concurrent)
        let slots = DispatchSemaphore(value: settings.jobs)
        let group = DispatchGroup()
        let inflight = InflightRequests()
        let collected = ResultCollector(count: items.count)
        let interrupt = Interrupt.install()
        interrupt.onInterrupt { inflight.cancelAll() }
        interrupt.watchInBackground()

        let offline = settings.isLive ? nil : SampleCheck(settings: settings)
        let live = settings.isLive ? LiveCheck(
            settings: settings, providers: ProviderPool(plugins: settings.plugins),
            limiter: settings.rate.map { RateLimiter(requestsPerSecond: $0) }, inflight: inflight, queue: queue) : nil

        for (index, item) in items.enumerated() {
            slots.wait()
            if interrupt.wasInterrupted {
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
        if interrupt.wasInterrupted { return nil }
        return collected.results
    }
}
