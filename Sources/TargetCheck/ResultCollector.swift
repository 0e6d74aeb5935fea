import Synchronization

/// Results stored by plan index from any thread.
final class ResultCollector: Sendable {
    /// Every slot starts as the result of an item never run (which counts as failed), one value
    /// shared by all until replaced.
    private let slots: Mutex<[CheckResult]>

    init(count: Int) {
        slots = Mutex(Array(repeating: .failed(.transport, ["not run"], duration: nil), count: count))
    }

    func store(_ result: CheckResult, at index: Int) {
        slots.withLock { $0[index] = result }
    }

    /// Every result, in plan order, handed over: the collector keeps none (a copy of 10,000
    /// results was a second copy of them all at the end of a sweep).
    func takeResults() -> [CheckResult] {
        slots.withLock { slots in
            defer { slots = [] }
            return slots
        }
    }
}
