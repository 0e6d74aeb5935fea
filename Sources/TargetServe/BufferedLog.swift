import Synchronization

/// The request log's lines gathered and written in batches: one write per line costs a system
/// call per request, more than answering a small sample does. A batch is written when it grows
/// past `batchSize`, when `flush()` is called (by `serve`, every 0.1 s and at exit),
/// or at once for each line when the log is read as it comes (a terminal).
package final class BufferedLog: Sendable {
    /// The bytes held before a batch is written whatever the time.
    static let batchSize = 64 * 1024

    private let pending = Mutex<[UInt8]>([])
    private let immediate: Bool
    private let write: @Sendable ([UInt8]) -> Void

    /// - Parameters:
    ///   - immediate: every line written as it comes (the log is a terminal someone watches).
    ///   - write: writes bytes (whole lines) to the log; called with the buffer locked, so
    ///     batches are never reordered.
    package init(immediate: Bool, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.immediate = immediate
        self.write = write
    }

    /// Adds `line` (without its line break).
    package func append(_ line: String) {
        pending.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            if immediate || bytes.count >= Self.batchSize { drain(&bytes) }
        }
    }

    /// Writes what is held.
    package func flush() {
        pending.withLock { drain(&$0) }
    }

    private func drain(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        write(bytes)
        bytes.removeAll(keepingCapacity: bytes.count <= Self.batchSize * 2)
    }
}
