import Dispatch
import Paging
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

        var dependents: [Int: [Int]] = [:]
        for (index, item) in items.enumerated() {
            if let before = item.afterIndex { dependents[before, default: []].append(index) }
        }
        let scheduler = ChainScheduler(items: items, dependents: dependents, live: live, offline: offline, queue: queue,
                                       group: group, slots: slots, collected: collected, report: report)
        // Chained examples start when the step before them ends; a chain runs in its first step's slot.
        for (index, item) in items.enumerated() where item.afterIndex == nil {
            slots.wait()
            if inflight.isCancelled {
                slots.signal()
                break
            }
            group.enter()
            scheduler.start(item, index: index)
        }
        group.wait()
        if inflight.isCancelled { return nil }
        return collected.takeResults()
    }
}

/// Starts items and, as each ends, the chained examples that run after it.
private final class ChainScheduler: Sendable {
    let items: [CheckItem]
    let dependents: [Int: [Int]]
    let live: LiveCheck?
    let offline: SampleCheck?
    let queue: DispatchQueue
    let group: DispatchGroup
    let slots: DispatchSemaphore
    let collected: ResultCollector
    let report: @Sendable (Int, CheckResult) -> Void

    init(items: [CheckItem], dependents: [Int: [Int]], live: LiveCheck?, offline: SampleCheck?, queue: DispatchQueue,
         group: DispatchGroup, slots: DispatchSemaphore, collected: ResultCollector, report: @escaping @Sendable (Int, CheckResult) -> Void) {
        self.items = items
        self.dependents = dependents
        self.live = live
        self.offline = offline
        self.queue = queue
        self.group = group
        self.slots = slots
        self.collected = collected
        self.report = report
    }

    /// Checks `item` (entered in `group` already).
    func start(_ item: CheckItem, index: Int) {
        let finish: @Sendable (CheckResult) -> Void = { [self] result in self.finish(result, index: index, ranAs: item) }
        if let reason = item.notCoveredReason {
            finish(.notCovered(reason))
        } else if let live {
            queue.async { live.start(item, index: index, completion: finish) }
        } else if let offline {
            queue.async { finish(offline.run(item, index: index)) }
        }
    }

    private func finish(_ result: CheckResult, index: Int, ranAs item: CheckItem? = nil) {
        var result = result
        if let item, item.chain != nil {
            let redactor = SecretRedactor(secretValues: item.inheritedCaptures?.secretValues ?? [])
            result.chainArguments = item.orderedArguments.map { argument in
                guard case .string(let text) = argument.value else { return argument }
                return (argument.name, .string(redactor.redact(text)))
            }
        }
        collected.store(result, at: index)
        report(index, result)
        for next in dependents[index] ?? [] {
            group.enter()
            switch ChainStep.prepare(items[next], after: result, predecessorID: items[index].id) {
            case .success(let ready): start(ready, index: next)
            case .failure(let box): finish(box.result, index: next)
            }
        }
        if items[index].afterIndex == nil { slots.signal() }
        group.leave()
    }
}
