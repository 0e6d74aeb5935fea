import Dispatch
import MoyaKit
import Paging
import Synchronization
import TargetSpec

/// Runs a plan: offline (every sample through the stub pipeline) or live, `jobs` items at a
/// time, handing each result to `report` as it comes. `cancel()` (from a signal watcher, say)
/// cancels what is in flight and starts nothing more.
package final class CheckRunner: Sendable {
    /// The items to check, in plan order.
    package let items: [CheckItem]
    /// How they are checked.
    package let configuration: CheckConfiguration
    private let inflight = InflightRequests()

    /// Creates a runner for `items`.
    package init(items: [CheckItem], configuration: CheckConfiguration) {
        self.items = items
        self.configuration = configuration
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { inflight.isCancelled }

    /// Cancels every request in flight and any started later; `run` then returns `nil`.
    package func cancel() {
        inflight.cancelAll()
    }

    /// Checks every item; returns the results in plan order, or `nil` when cancelled. `report`
    /// receives each result (with its plan index) as soon as it is known, on any thread.
    package func run(report: @escaping @Sendable (Int, CheckResult) -> Void) -> [CheckResult]? {
        let settings = configuration
        let queue = DispatchQueue(label: "moya-cli.check", attributes: .concurrent)
        let group = DispatchGroup()
        let inflight = self.inflight
        let collected = ResultCollector(count: items.count)

        let offline = settings.isLive ? nil : SampleCheck(settings: settings)
        let live =
            settings.isLive
            ? LiveCheck(
                settings: settings, providers: ProviderPool(plugins: settings.plugins),
                limiter: settings.rate.map { RateLimiter(requestsPerSecond: $0) }, inflight: inflight, queue: queue)
            : nil

        var dependents: [Int: [Int]] = [:]
        for (index, item) in items.enumerated() {
            if let before = item.afterIndex { dependents[before, default: []].append(index) }
        }
        let scheduler = ChainScheduler(
            items: items, dependents: dependents, live: live, offline: offline, queue: queue,
            group: group, inflight: inflight, collected: collected, report: report)
        // `jobs` slots: each item that ends frees its slot for the next (see `startNextRoot`).
        // Chained examples start when the step before them ends; a chain runs in its first step's slot.
        for _ in 0..<settings.jobs { scheduler.startNextRoot(fromQueue: false) }
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
    let inflight: InflightRequests
    let collected: ResultCollector
    let report: @Sendable (Int, CheckResult) -> Void
    /// The items that start a chain or stand alone, in plan order: each takes a slot.
    let roots: [Int]
    /// How many of `roots` were started.
    private let started = Atomic(0)

    init(
        items: [CheckItem], dependents: [Int: [Int]], live: LiveCheck?, offline: SampleCheck?, queue: DispatchQueue,
        group: DispatchGroup, inflight: InflightRequests, collected: ResultCollector,
        report: @escaping @Sendable (Int, CheckResult) -> Void
    ) {
        self.items = items
        self.dependents = dependents
        self.live = live
        self.offline = offline
        self.queue = queue
        self.group = group
        self.inflight = inflight
        self.collected = collected
        self.report = report
        roots = items.indices.filter { items[$0].afterIndex == nil }
    }

    /// Starts the next root item in plan order in a free slot, unless none is left or the run
    /// was cancelled. The run fills its `jobs` slots this way, then each root item that ends
    /// starts the next from the queue's thread it ended on: no hop through the thread that waits
    /// for the run (it was woken for every item, a tenth of a live sweep's system time).
    func startNextRoot(fromQueue: Bool) {
        guard !inflight.isCancelled else { return }
        let position = started.add(1, ordering: .relaxed).oldValue
        guard position < roots.count else { return }
        let index = roots[position]
        group.enter()
        if fromQueue {
            // Asynchronously: an item that ends at once (not covered, skipped) would otherwise
            // start the next one inside this call, and a long run of them would overflow the stack.
            queue.async { self.start(self.items[index], index: index, onQueue: true) }
        } else {
            start(items[index], index: index)
        }
    }

    /// Checks `item` (entered in `group` already); `onQueue` when called on `queue` already.
    func start(_ item: CheckItem, index: Int, onQueue: Bool = false) {
        let finish: @Sendable (CheckResult) -> Void = { [self] result in self.finish(result, index: index, ranAs: item)
        }
        if let reason = item.notCoveredReason {
            finish(.notCovered(reason))
        } else if let live {
            if onQueue {
                live.start(item, index: index, completion: finish)
            } else {
                queue.async { live.start(item, index: index, completion: finish) }
            }
        } else if let offline {
            if onQueue {
                finish(offline.run(item, index: index))
            } else {
                queue.async { finish(offline.run(item, index: index)) }
            }
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
        // The slot is free: the next root item takes it (before this one leaves the group, which
        // must not empty while items remain).
        if items[index].afterIndex == nil { startNextRoot(fromQueue: true) }
        group.leave()
    }
}
