import Synchronization

/// Results stored by plan index from any thread.
final class ResultCollector: Sendable {
    private let slots: Mutex<[CheckResult?]>

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    func store(_ result: CheckResult, at index: Int) {
        slots.withLock { $0[index] = result }
    }

    /// Every result, in plan order (an item never run counts as failed).
    var results: [CheckResult] {
        slots.withLock { $0.map { $0 ?? .failed(.transport, ["not run"], duration: nil) } }
    }
}
