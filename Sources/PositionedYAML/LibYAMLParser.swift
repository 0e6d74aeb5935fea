import CYAML
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One libyaml event, copied into Swift values so the C event can be freed at once.
package enum ParsedEvent: Sendable {
    case streamStart
    case streamEnd
    case documentStart(Mark)
    case documentEnd
    case alias(anchor: String, mark: Mark)
    case scalar(Node.Scalar, anchor: String?)
    case sequenceStart(anchor: String?, mark: Mark)
    case sequenceEnd
    case mappingStart(anchor: String?, mark: Mark)
    case mappingEnd
}

/// Owns one `yaml_parser_t` reading a UTF-8 buffer, and hands out its events as ``ParsedEvent``s.
///
/// Unlike Yams' `Event` class, an event never outlives `next()`: it is copied (one `String` per
/// scalar, built straight from libyaml's buffer) and freed before returning, so no object is
/// allocated per event. Parsed ahead, the events cross over as libyaml's own (``EventPrefetch``)
/// and are copied here, on the reader's thread. The buffer must stay valid for the parser's lifetime.
package final class LibYAMLParser {
    /// Inputs from this size on are parsed on a thread of their own, ahead of the caller (see
    /// ``EventPrefetch``); smaller ones, nearly every target file, on the caller's thread.
    package static let prefetchThreshold = 64 * 1024

    /// Whether the machine has more than one processor online: on one, parsing ahead would only
    /// add the hand-over to the same work. (A busy machine is not detected: there the threads
    /// share the processors, and loading costs some 7% more than on one thread.)
    static let hasSeveralProcessors = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

    /// Heap-allocated because libyaml keeps a pointer to the parser inside itself.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeBufferPointer<UInt8>
    private let maximumScalarLength: Int
    /// Gives back the pages libyaml has read past, for a file handed on case by case.
    private let release: InputRelease?
    /// The parsing thread's events, when the input is parsed ahead; owned (retained once, here,
    /// released in `deinit`) and read in `next()` without retaining it: a retain and a release
    /// per event were a tenth of the reading thread's time on a large file.
    private let prefetch: Unmanaged<EventPrefetch>?
    /// The same, read without retaining it (it lives as long as `prefetch`).
    private unowned(unsafe) let reader: EventPrefetch?

    /// Creates a parser over `input`, UTF-8 without a byte-order mark, which must not be empty.
    /// With `prefetching` (default: from ``prefetchThreshold`` bytes on), a thread of its own
    /// parses ahead while the caller builds and validates: on two cores a large file then loads
    /// in about the time libyaml alone takes, instead of that plus the building. The events and
    /// errors are the same, in the same order.
    package init(
        input: UnsafeBufferPointer<UInt8>, maximumScalarLength: Int, prefetching: Bool? = nil,
        release: InputRelease? = nil
    ) {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        // Only fails when malloc does; yaml_parser_parse then reports a memory error.
        _ = yaml_parser_initialize(parser)
        // Forced, so libyaml never guesses UTF-16; the caller has removed any UTF-8 BOM, which
        // libyaml would otherwise count as a column once the encoding is forced.
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
        self.parser = parser
        self.input = input
        self.maximumScalarLength = maximumScalarLength
        self.release = release
        if prefetching ?? (input.count >= Self.prefetchThreshold && Self.hasSeveralProcessors) {
            let reader = EventPrefetch(
                source: EventSource(
                    parser: parser, input: input, maximumScalarLength: maximumScalarLength, release: release))
            prefetch = .passRetained(reader)
            self.reader = reader
        } else {
            prefetch = nil
            reader = nil
        }
    }

    deinit {
        // The parsing thread uses the parser and the input: it ends before either goes.
        if let prefetch {
            prefetch.takeUnretainedValue().stop()
            prefetch.release()
        }
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The next event, or the syntax error libyaml found.
    package func next() throws(LocatedProblem) -> ParsedEvent {
        if let reader {
            return try reader.next()
        }
        var event = yaml_event_t()
        try EventSource(parser: parser, input: input, maximumScalarLength: maximumScalarLength, release: release)
            .parse(into: &event)
        defer { EventSource.delete(&event) }
        return EventSource.copy(&event)
    }
}

/// The parser's state as the thread that parses uses it: libyaml keeps no global state, so one
/// parser may be driven from any one thread at a time.
struct EventSource: @unchecked Sendable {
    let parser: UnsafeMutablePointer<yaml_parser_t>
    let input: UnsafeBufferPointer<UInt8>
    let maximumScalarLength: Int
    let release: InputRelease?

    /// Parses the next event into `event`, which the caller frees (``delete(_:)``), or throws
    /// the syntax error libyaml found (then `event` holds nothing to free). A scalar longer than
    /// the limit is refused here, freed, in place of its event. Gives back the pages read past
    /// (``InputRelease``) every few thousand events.
    func parse(into event: UnsafeMutablePointer<yaml_event_t>) throws(LocatedProblem) {
        try parseWithoutRelease(into: event)
        release?.advance(parser, input: input)
    }

    /// ``parse(into:)`` without giving pages back: the parsing thread does that once a batch.
    @inline(__always)
    func parseWithoutRelease(into event: UnsafeMutablePointer<yaml_event_t>) throws(LocatedProblem) {
        try parseOnly(into: event)
        guard event.pointee.type == YAML_SCALAR_EVENT, event.pointee.data.scalar.length > maximumScalarLength
        else { return }
        try refuseLongScalar(event)
    }

    /// libyaml's next event, unchecked: the parsing thread's reader refuses a scalar too long
    /// (``EventPrefetch``), as ``parseWithoutRelease(into:)`` does.
    @inline(__always)
    func parseOnly(into event: UnsafeMutablePointer<yaml_event_t>) throws(LocatedProblem) {
        guard yaml_parser_parse(parser, event) == 1 else { throw currentError() }
    }

    /// Frees `event`, a scalar too long, and throws the problem saying so.
    private func refuseLongScalar(_ event: UnsafeMutablePointer<yaml_event_t>) throws(LocatedProblem) {
        let length = event.pointee.data.scalar.length
        let mark = Self.mark(event.pointee.start_mark)
        Self.delete(event)
        throw LocatedProblem(problem: .scalarTooLong(length: length, limit: maximumScalarLength), mark: mark)
    }

    /// Frees what libyaml allocated for `event`, as `yaml_event_delete` does (with libyaml's
    /// `yaml_free`, which is `free`), without its calls and clearing for the events a file is
    /// made of: a scalar's text, and the anchors and tags of nodes.
    @inline(__always)
    static func delete(_ event: UnsafeMutablePointer<yaml_event_t>) {
        switch event.pointee.type {
        case YAML_SCALAR_EVENT:
            free(event.pointee.data.scalar.value)
            if let anchor = event.pointee.data.scalar.anchor { free(anchor) }
            if let tag = event.pointee.data.scalar.tag { free(tag) }
        case YAML_MAPPING_START_EVENT:
            if let anchor = event.pointee.data.mapping_start.anchor { free(anchor) }
            if let tag = event.pointee.data.mapping_start.tag { free(tag) }
        case YAML_SEQUENCE_START_EVENT:
            if let anchor = event.pointee.data.sequence_start.anchor { free(anchor) }
            if let tag = event.pointee.data.sequence_start.tag { free(tag) }
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT, YAML_STREAM_END_EVENT, YAML_DOCUMENT_END_EVENT:
            break
        default:
            // The stream's and documents' starts (version and tag directives), aliases.
            yaml_event_delete(event)
        }
    }

    /// libyaml's `event` copied into Swift values (one `String` per scalar, built straight from
    /// libyaml's buffer), so the event can be freed at once: no object is allocated per event.
    static func copy(_ event: UnsafeMutablePointer<yaml_event_t>) -> ParsedEvent {
        switch event.pointee.type {
        case YAML_STREAM_START_EVENT:
            return .streamStart
        case YAML_STREAM_END_EVENT:
            return .streamEnd
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(mark(event.pointee.start_mark))
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(anchor: string(event.pointee.data.alias.anchor) ?? "", mark: mark(event.pointee.start_mark))
        case YAML_SCALAR_EVENT:
            let scalar = event.pointee.data.scalar
            let text =
                scalar.value.flatMap { SmallASCII.string($0, count: scalar.length) }
                ?? String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let node = Node.Scalar(
                text: text,
                isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE,
                tag: string(scalar.tag),
                mark: mark(event.pointee.start_mark))
            return .scalar(node, anchor: string(scalar.anchor))
        case YAML_SEQUENCE_START_EVENT:
            return .sequenceStart(
                anchor: string(event.pointee.data.sequence_start.anchor), mark: mark(event.pointee.start_mark))
        case YAML_SEQUENCE_END_EVENT:
            return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            return .mappingStart(
                anchor: string(event.pointee.data.mapping_start.anchor), mark: mark(event.pointee.start_mark))
        case YAML_MAPPING_END_EVENT:
            return .mappingEnd
        default:
            // YAML_NO_EVENT: libyaml only returns it after an error or the stream's end.
            return .streamEnd
        }
    }

    /// libyaml's error as a problem with a mark. Reader errors carry a byte offset instead of a mark.
    private func currentError() -> LocatedProblem {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown error"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return LocatedProblem(problem: .unreadable(reason: "out of memory while parsing"), mark: nil)
        case YAML_READER_ERROR:
            var mark: Mark?
            text { mark = SourceScreen.mark(ofByteOffset: state.problem_offset, in: $0) }
            return LocatedProblem(
                problem: .syntax(problem: problem, context: nil, contextMark: nil, hint: nil), mark: mark)
        default:
            let problemMark = Self.mark(state.problem_mark)
            let contextMark = Self.mark(state.context_mark)
            let context = state.context.map { String(cString: $0) }
            let syntax = YAMLProblem.syntax(
                problem: problem,
                context: context,
                contextMark: context == nil || contextMark == problemMark ? nil : contextMark,
                hint: hint(at: problemMark))
            return LocatedProblem(problem: syntax, mark: problemMark)
        }
    }

    /// Advice for the one mistake libyaml explains badly: a tab where YAML wants spaces.
    private func hint(at mark: Mark) -> String? {
        var isTab = false
        text { text in
            if let offset = SourceScreen.byteOffset(of: mark, in: text) { isTab = text[offset] == 0x09 }
        }
        return isTab ? "tabs are not allowed in YAML indentation; indent with spaces" : nil
    }

    /// The input, for an error: as given, or read again when pages of it were given back (not
    /// called when it can no longer be read).
    private func text(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let release else { return body(input) }
        release.text(for: input, body)
    }

    @inline(__always)
    static func mark(_ mark: yaml_mark_t) -> Mark {
        Mark(line: mark.line + 1, column: mark.column + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
