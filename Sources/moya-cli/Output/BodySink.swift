import CurlTransport
import MoyaKit
import Synchronization

/// Where `call` streams a response body as it arrives: stdout (`-o -` or no `-o`) or the
/// `--output` file, which is written by `OutputFile`'s rules (a regular file whole or not at all,
/// a device or FIFO written through). With `-i` the head goes first.
///
/// The transport calls `begin` and `consume` one exchange at a time (a retry is a new exchange),
/// on the thread driving it; the state sits behind a mutex all the same.
final class BodySink: ResponseBodyConsumer {
    /// Where the body goes.
    enum Destination: Equatable {
        case standardOutput
        case file(path: String, overwrite: Bool)
    }

    private struct State {
        var hasBegun = false
        var file: OutputFile?
        /// Whether the current attempt's answer is to be dropped (it will be retried).
        var skipsAttempt: (@Sendable (HTTPResponseHead) -> Bool)?
    }

    let destination: Destination
    /// `-i`: the status line and headers before the body.
    let includesHead: Bool
    private let state = Mutex(State())

    init(destination: Destination, includesHead: Bool) {
        self.destination = destination
        self.includesHead = includesHead
    }

    /// Whether a body (or, with `-i`, a head) was written.
    var hasBegun: Bool { state.withLock { $0.hasBegun } }

    /// Sets, for the next attempt, which answers are dropped instead of written (those that will
    /// be retried).
    func skipAnswers(where skips: @escaping @Sendable (HTTPResponseHead) -> Bool) {
        state.withLock { $0.skipsAttempt = skips }
    }

    func begin(_ head: HTTPResponseHead) throws(TransportError) -> Bool {
        let skips = state.withLock { $0.skipsAttempt }
        if skips?(head) == true { return false }
        var file: OutputFile?
        if case .file(let path, let overwrite) = destination {
            file = try OutputFile(path: path, overwrite: overwrite)
        }
        state.withLock { state in
            state.hasBegun = true
            state.file = file
        }
        if includesHead {
            try StandardStream.output.writeChecked(ResponseWriter.headText(head) + "\n")
        }
        return true
    }

    func consume(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        if let file = state.withLock({ $0.file }) {
            try file.write(bytes)
        } else {
            try StandardStream.output.writeChecked(bytes)
        }
    }

    /// Moves the `--output` file into place; returns how many bytes it got, `nil` for stdout.
    func finish() throws(TransportError) -> Int64? {
        guard let file = state.withLock({ $0.file }) else { return nil }
        try file.commit()
        return file.byteCount
    }

    /// Drops what was written to the `--output` file (the request failed).
    func abandon() {
        state.withLock { $0.file }?.discard()
    }
}
