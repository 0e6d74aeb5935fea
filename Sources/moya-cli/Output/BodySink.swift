import CurlTransport
import FileIO
import MoyaKit
import Synchronization
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where `call` streams a response body as it arrives: stdout (`-o -` or no `-o`), the `--output`
/// file, which is written by `OutputFile`'s rules (a regular file whole or not at all, a device or
/// FIFO written through), or a terminal. With `-i` the head goes first.
///
/// On a terminal, a text body (`streamsAsText`) is shown as it arrives, escaped as a whole one
/// would be (`DisplayTextStream`); any other body (JSON to pretty-print, binary to hold back) is
/// kept, up to a limit, for `ResponseWriter` to show whole once it is complete.
///
/// The transport calls `begin` and `consume` one exchange at a time (a retry is a new exchange),
/// on the thread driving it; the state sits behind a mutex all the same.
final class BodySink: ResponseBodyConsumer {
    /// Where the body goes.
    enum Destination: Equatable {
        case standardOutput
        case file(path: String, overwrite: Bool)
        /// Stdout, a terminal; a body not shown as it arrives is kept, up to `keepingAtMost` bytes.
        case terminal(keepingAtMost: Int)
    }

    private struct State {
        var hasBegun = false
        var file: OutputFile?
        /// Whether the current attempt's answer is to be dropped (it will be retried).
        var skipsAttempt: (@Sendable (HTTPResponseHead) -> Bool)?
        /// On a terminal: the text being shown as it arrives...
        var text: DisplayTextStream?
        /// ... or the body kept to be shown whole.
        var kept: Data?
        /// A stream read event by event (`events`), and how many were printed.
        var splitter: StreamEventSplitter?
        var eventCount = 0
        var endedByEventLimit = false
    }

    let destination: Destination
    /// `-i`: the status line and headers before the body.
    let includesHead: Bool
    /// `--sorted`: those headers sorted by name.
    let sortsHead: Bool
    /// How a stream's events are printed one by one (`--keypath`, `--format jsonl`, `--max-events`,
    /// JSON lines on a terminal); `nil` for a file.
    let events: EventPrinter?
    private let state = Mutex(State())

    init(destination: Destination, includesHead: Bool, sortsHead: Bool = false, events: EventPrinter? = nil) {
        self.destination = destination
        self.includesHead = includesHead
        self.sortsHead = sortsHead
        self.events = events
    }

    /// Whether `--max-events` ended the transfer.
    var endedByEventLimit: Bool { state.withLock { $0.endedByEventLimit } }

    /// Whether a body (or, with `-i`, a head) was written.
    var hasBegun: Bool { state.withLock { $0.hasBegun } }

    /// The body kept for a terminal to be shown whole, if it was not shown as it arrived.
    var keptBody: Data? { state.withLock { $0.kept } }

    /// Sets, for the next attempt, which answers are dropped instead of written (those that will
    /// be retried).
    func skipAnswers(where skips: @escaping @Sendable (HTTPResponseHead) -> Bool) {
        state.withLock { $0.skipsAttempt = skips }
    }

    /// Whether a body of `contentType` is text a person reads as it comes: `text/*`, XML, YAML,
    /// JavaScript, CSV, a form. JSON is not: a terminal gets it pretty-printed, which needs it
    /// whole; neither is a body without a type (it may be binary).
    static func streamsAsText(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = String(
            (contentType.split(separator: ";", maxSplits: 1).first ?? "").filter { $0 != " " && $0 != "\t" }
        ).lowercased()
        if mediaType.contains("json") { return false }
        if mediaType.hasPrefix("text/") || mediaType.hasSuffix("/xml") || mediaType.hasSuffix("+xml") { return true }
        return [
            "application/javascript", "application/x-yaml", "application/yaml", "application/csv",
            "application/x-www-form-urlencoded"
        ].contains(mediaType)
    }

    func begin(_ head: HTTPResponseHead) throws(TransportError) -> Bool {
        let skips = state.withLock { $0.skipsAttempt }
        if skips?(head) == true { return false }
        var file: OutputFile?
        var text: DisplayTextStream?
        var kept: Data?
        var splitter: StreamEventSplitter?
        if let events {
            let contentType = head.headers.joinedValue(for: .contentType)
            if let kind = StreamEventSplitter.kind(contentType: contentType, forcesLines: events.forcesLines),
                events.readsEvents(of: kind)
            {
                splitter = StreamEventSplitter(kind: kind, limit: events.lineLimit)
            } else if events.keepsOtherBodies {
                kept = Data()
            }
        }
        switch destination {
        case .file(let path, let overwrite):
            file = try TransportError.converting { () throws(FileError) in
                try OutputFile(path: path, overwrite: overwrite)
            }
        case .terminal:
            if splitter != nil || kept != nil {
                // Events on the screen are the progress now.
                if splitter != nil { ProgressLine.hold() }
            } else if Self.streamsAsText(contentType: head.headers.joinedValue(for: .contentType))
                || events?.forcesLines == true
            {
                text = DisplayTextStream()
                // The body on the screen is the progress now.
                ProgressLine.hold()
            } else {
                kept = Data()
            }
        case .standardOutput:
            break
        }
        state.withLock { state in
            state.hasBegun = true
            state.file = file
            state.text = text
            state.kept = kept
            state.splitter = splitter
            state.eventCount = 0
        }
        if includesHead {
            switch destination {
            case .terminal:
                // A kept body is shown with its head by `ResponseWriter`.
                if text != nil || splitter != nil {
                    try TransportError.converting { () throws(FileError) in
                        try StandardStream.output.writeChecked(
                            DisplayText.escaped(
                                ResponseWriter.headText(head, sortingNames: sortsHead), keepingLineBreaks: true) + "\n")
                    }
                }
            case .standardOutput, .file:
                // A kept body is shown with its head by `ResponseWriter`.
                if kept != nil { break }
                try TransportError.converting { () throws(FileError) in
                    try StandardStream.output.writeChecked(
                        ResponseWriter.headText(head, sortingNames: sortsHead) + "\n")
                }
            }
        }
        return true
    }

    func consume(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        if let events, state.withLock({ $0.splitter != nil }) {
            try consumeEvents(bytes, printer: events)
        } else if case .terminal(let limit) = destination {
            try consumeOnTerminal(bytes, keepingAtMost: limit)
        } else if let limit = events?.lineLimit, state.withLock({ $0.kept != nil }) {
            try consumeOnTerminal(bytes, keepingAtMost: limit)
        } else if let file = state.withLock({ $0.file }) {
            try TransportError.converting { () throws(FileError) in try file.write(bytes) }
        } else {
            try TransportError.converting { () throws(FileError) in try StandardStream.output.writeChecked(bytes) }
        }
    }

    /// Prints the events `bytes` completes; ends the transfer once `--max-events` were printed.
    private func consumeEvents(_ bytes: UnsafeRawBufferPointer, printer: EventPrinter) throws(TransportError) {
        let found = try state.withLock { (state) throws(TransportError) -> [StreamEvent] in
            do throws(StreamEventSplitter.LineTooLong) {
                return try state.splitter?.take(bytes) ?? []
            } catch {
                throw TransportError(
                    kind: .responseTooLarge,
                    message:
                        "a line of the stream is longer than \(ByteCount.describe(error.limit)), the most kept in memory"
                )
            }
        }
        try print(found, printer: printer)
    }

    private func print(_ found: [StreamEvent], printer: EventPrinter) throws(TransportError) {
        guard let kind = state.withLock({ $0.splitter?.kind }) else { return }
        for event in found {
            let number = state.withLock { state in
                state.eventCount += 1
                return state.eventCount
            }
            if let text = printer.text(of: event, kind: kind, number: number) {
                try TransportError.converting { () throws(FileError) in try StandardStream.output.writeChecked(text) }
            }
            if let most = printer.maxEvents, number >= most {
                state.withLock { $0.endedByEventLimit = true }
                throw .bodyEndedByReader
            }
        }
    }

    private func consumeOnTerminal(_ bytes: UnsafeRawBufferPointer, keepingAtMost limit: Int) throws(TransportError) {
        let shown = try state.withLock { (state) throws(TransportError) -> String? in
            if state.text != nil { return state.text?.escape(bytes) }
            if (state.kept?.count ?? 0) + bytes.count > limit {
                throw TransportError(
                    kind: .responseTooLarge,
                    message: "the response body is larger than \(ByteCount.describe(limit)), the most kept in memory")
            }
            state.kept?.append(contentsOf: bytes)
            return nil
        }
        if let shown, !shown.isEmpty {
            try TransportError.converting { () throws(FileError) in try StandardStream.output.writeChecked(shown) }
        }
    }

    /// Moves the `--output` file into place; returns how many bytes it got, `nil` for stdout. On
    /// a terminal, ends the text shown as it arrived.
    func finish() throws(TransportError) -> Int64? {
        if let events, state.withLock({ $0.splitter != nil && !$0.endedByEventLimit }) {
            let rest = state.withLock { $0.splitter?.finish() ?? [] }
            do throws(TransportError) {
                try print(rest, printer: events)
            } catch  where error == .bodyEndedByReader {}
            return nil
        }
        if case .terminal = destination {
            let rest = state.withLock { $0.text?.finish() }
            if let rest, !rest.isEmpty {
                try TransportError.converting { () throws(FileError) in try StandardStream.output.writeChecked(rest) }
            }
            return nil
        }
        guard let file = state.withLock({ $0.file }) else { return nil }
        try TransportError.converting { () throws(FileError) in try file.commit() }
        return file.byteCount
    }

    /// Drops what was written to the `--output` file (the request failed).
    func abandon() {
        state.withLock { $0.file }?.discard()
    }
}
