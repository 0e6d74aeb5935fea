import TargetSpec

/// Values the process keeps until it exits rather than freeing them.
///
/// Kept until exit: the APIs loaded from a large target file are some hundreds of thousands of
/// strings, arrays and boxes, and releasing them one by one is pure cost for a command that is
/// about to return (budget "validate (10,000 cases)", bench/budgets.json). Only the command line does this; the
/// library frees what it hands back as usual.
enum KeptUntilExit {
    /// Everything kept. Written only from the main thread, by a command before it returns.
    nonisolated(unsafe) private static var values: [Any] = []

    /// Keeps `value` alive until the process exits.
    static func keep(_ value: Any) {
        values.append(value)
    }
}
