import TargetSpec

/// Values the process keeps until it exits rather than freeing them.
///
/// Kept until exit: freeing large loaded APIs costs ~10 ms and the process ends anyway. The APIs loaded
/// from a 10,000-case target file are some hundreds of thousands of strings, arrays and boxes
/// (measured: releasing them is ~3% of `validate`'s instructions, ~10 ms); releasing them one by one
/// is pure cost for a command that is about to return. Only the command line does this; the
/// library frees what it hands back as usual.
enum KeptUntilExit {
    /// Everything kept. Written only from the main thread, by a command before it returns.
    nonisolated(unsafe) private static var values: [Any] = []

    /// Keeps `value` alive until the process exits.
    static func keep(_ value: Any) {
        values.append(value)
    }
}
