import CYAML
import TargetModel

/// Where the root mapping's `cases` sits in a target file's text, read from libyaml's events
/// (which, unlike the loader's nodes, carry where each token ends): the case names with their
/// places, the indentation the cases use, and the byte just after the last case's last token.
///
/// The file is expected to have loaded without errors already: this reads its layout, and says
/// why when it is not one a case can be appended to (a flow-style `cases`, a flow top level).
package struct CasesLayout: Sendable {
    /// A case's name and where its key starts (1-based line and column, columns in characters).
    package struct CaseKey: Sendable, Equatable {
        package var name: String
        package var line: Int
        package var column: Int
    }

    /// The cases, in file order.
    package var keys: [CaseKey]
    /// The spaces before a case's first member key, beyond the case key's own (`path:` under
    /// `zen:`): the file's indentation step, when some case is a block mapping.
    package var memberStep: Int?
    /// The column of the `cases` key (1 when it is a top-level key as usual).
    package var casesKeyColumn: Int
    /// The byte offset just after the last case's last token (a block scalar's ends at the start
    /// of the line after it, past its indentation).
    package var contentEnd: Int

    /// Reads the layout of `bytes`, a target file that loads without errors.
    package static func read(_ bytes: [UInt8], file: String) throws(TargetFileEditError) -> CasesLayout {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skipped = bytes.starts(with: byteOrderMark) ? 3 : 0
        let text = Array(bytes.dropFirst(skipped))
        let result: Result<CasesLayout, TargetFileEditError> = text.withUnsafeBufferPointer { buffer in
            let events = EventReader(buffer)
            let lines = LineStarts(buffer)
            do throws(TargetFileEditError) {
                var walk = Walk(events: events, file: file)
                try walk.run()
                let end = lines.offset(line: walk.contentEndMark.line, column: walk.contentEndMark.column) + skipped
                return .success(
                    CasesLayout(
                        keys: walk.keys, memberStep: walk.memberStep,
                        casesKeyColumn: walk.casesKeyColumn, contentEnd: end))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// One libyaml event, copied: its kind, where it starts and ends (0-based), a scalar's text, and
/// whether a collection is written in flow style.
struct Event {
    var type: yaml_event_type_t
    var start: (line: Int, column: Int)
    var end: (line: Int, column: Int)
    var text: String = ""
    var isFlow = false
    /// The node's anchor (`&name`), which a replaced node keeps.
    var anchor: String?
}

final class EventReader {
    private let parser: UnsafeMutablePointer<yaml_parser_t>

    init(_ input: UnsafeBufferPointer<UInt8>) {
        parser = .allocate(capacity: 1)
        _ = yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The next event; `nil` on a syntax error (which the loader has reported already).
    func next() -> Event? {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { return nil }
        defer { yaml_event_delete(&event) }
        var copied = Event(
            type: event.type,
            start: (Int(event.start_mark.line), Int(event.start_mark.column)),
            end: (Int(event.end_mark.line), Int(event.end_mark.column)))
        switch event.type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            copied.text = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            copied.anchor = scalar.anchor.map { String(cString: $0) }
        case YAML_MAPPING_START_EVENT:
            copied.isFlow = event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
            copied.anchor = event.data.mapping_start.anchor.map { String(cString: $0) }
        case YAML_SEQUENCE_START_EVENT:
            copied.isFlow = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
            copied.anchor = event.data.sequence_start.anchor.map { String(cString: $0) }
        default: break
        }
        return copied
    }
}

/// The walk over the events: the root mapping's entries, the `cases` mapping's in detail.
private struct Walk {
    let events: EventReader
    let file: String
    var keys: [CasesLayout.CaseKey] = []
    var memberStep: Int?
    var casesKeyColumn = 1
    var contentEndMark = (line: 0, column: 0)
    /// The end of the last token read that ends where it is written: a scalar, an alias, a flow
    /// collection's closing bracket (a block collection's end is where the next token starts).
    private var lastTokenEnd = (line: 0, column: 0)

    init(events: EventReader, file: String) {
        self.events = events
        self.file = file
    }

    mutating func run() throws(TargetFileEditError) {
        guard next()?.type == YAML_STREAM_START_EVENT, next()?.type == YAML_DOCUMENT_START_EVENT, let root = next(),
            root.type == YAML_MAPPING_START_EVENT
        else {
            throw refusal("its top level is not a map")
        }
        guard !root.isFlow else {
            throw refusal("its top level is written in flow style ({...}); write it as a block map to add cases")
        }
        var found = false
        while let key = next(), key.type != YAML_MAPPING_END_EVENT {
            guard let value = next() else { throw refusal("it cannot be parsed") }
            guard key.type == YAML_SCALAR_EVENT, key.text == "cases" else {
                try skip(value)
                continue
            }
            found = true
            casesKeyColumn = key.start.column + 1
            guard value.type == YAML_MAPPING_START_EVENT else {
                throw refusal("'cases' (line \(key.start.line + 1)) is not a map")
            }
            guard !value.isFlow else {
                throw refusal(
                    "'cases' (line \(key.start.line + 1)) is written in flow style ({...}); write it as a block map, one case per line, to add cases"
                )
            }
            try readCases()
        }
        guard found, !keys.isEmpty else { throw refusal("it has no 'cases' map") }
    }

    private mutating func readCases() throws(TargetFileEditError) {
        while let key = next(), key.type != YAML_MAPPING_END_EVENT {
            guard key.type == YAML_SCALAR_EVENT, let value = next() else {
                throw refusal("a case's name is not a string")
            }
            keys.append(CasesLayout.CaseKey(name: key.text, line: key.start.line + 1, column: key.start.column + 1))
            lastTokenEnd = key.end
            // The step is read from the first member's key: the map's own start is at its anchor
            // or tag when it has one.
            try skip(value, stepFromColumn: value.isFlow || memberStep != nil ? nil : key.start.column)
            contentEndMark = lastTokenEnd
        }
    }

    /// Reads past the node `first` starts, noting where its last token ends.
    /// With `stepFromColumn`, a block map's first key sets ``memberStep`` (its column minus that one).
    private mutating func skip(_ first: Event, stepFromColumn: Int? = nil) throws(TargetFileEditError) {
        switch first.type {
        case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT:
            lastTokenEnd = first.end
        case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
            var isFirst = first.type == YAML_MAPPING_START_EVENT
            while let event = next() {
                if isFirst, let stepFromColumn, event.start.column > stepFromColumn {
                    memberStep = event.start.column - stepFromColumn
                }
                isFirst = false
                if event.type == YAML_MAPPING_END_EVENT || event.type == YAML_SEQUENCE_END_EVENT {
                    if first.isFlow { lastTokenEnd = event.end }
                    return
                }
                try skip(event)
            }
            throw refusal("it cannot be parsed")
        default:
            throw refusal("it cannot be parsed")
        }
    }

    private func next() -> Event? { events.next() }

    private func refusal(_ why: String) -> TargetFileEditError {
        TargetFileEditError(.invalidTargetFile, "cannot add a case to \(file): \(why)")
    }
}

/// The byte offset of each line's start, for turning libyaml's (line, column) into offsets:
/// lines end as libyaml ends them (LF, CR LF, CR, U+0085, U+2028, U+2029) and a column counts
/// characters.
struct LineStarts {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var starts: [Int] = [0]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var index = 0
        while index < bytes.count {
            let length = Self.breakLength(at: index, in: bytes)
            if length > 0 {
                index += length
                starts.append(index)
            } else {
                index += 1
            }
        }
    }

    /// The offset of the character at 0-based `line` and `column` (or of the end of the text);
    /// `known` is an earlier column of the same line and its offset, to count on from.
    func offset(line: Int, column: Int, from known: (column: Int, offset: Int)? = nil) -> Int {
        guard line < starts.count else { return bytes.count }
        // From a known place earlier on the same line, when there is one.
        var index = known?.offset ?? starts[line]
        var remaining = column - (known?.column ?? 0)
        while remaining > 0, index < bytes.count {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            remaining -= 1
        }
        return index
    }

    static func breakLength(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        switch bytes[index] {
        case 0x0A: return 1
        case 0x0D: return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
        case 0xC2: return index + 1 < bytes.count && bytes[index + 1] == 0x85 ? 2 : 0
        case 0xE2:
            guard index + 2 < bytes.count, bytes[index + 1] == 0x80 else { return 0 }
            return bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 ? 3 : 0
        default: return 0
        }
    }
}
