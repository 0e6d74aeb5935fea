import TargetSpec

/// Values the process keeps until it exits rather than freeing them.
///
/// Kept until exit: freeing a large tree costs ~30 ms and the process ends anyway. A 10,000-case
/// target file is a tree of some 300,000 nodes, and the APIs built from it hold as many strings
/// and arrays; releasing them one by one is pure cost for a command that is about to return.
/// Only the command line does this; the library frees what it is given back as usual.
enum KeptUntilExit {
    /// Everything kept. Written only from the main thread, by a command before it returns.
    nonisolated(unsafe) private static var values: [Any] = []

    /// Keeps `value` alive until the process exits.
    static func keep(_ value: Any) {
        values.append(value)
    }
}
