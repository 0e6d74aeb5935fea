import CYAML
import TargetModel

/// Where one case's `sample` or `samples` sits in a target file's text, read from libyaml's events
/// (which, unlike the loader's nodes, carry where each token ends): the byte ranges a recorded
/// sample replaces or is inserted at, and the style (flow or block, indentation) the file uses
/// there, so ``SampleRecorder`` can edit the one node and keep every other byte.
///
/// The file is expected to have loaded without errors already.
package struct SampleLayout: Sendable {
    /// A node's place: `start` is its first byte (its anchor's, when it has one), `end` the byte
    /// after its last token (a block scalar's trailing line breaks are not counted).
    package struct Node: Sendable, Equatable {
        package var start: Int
        package var end: Int
        /// The 0-based column of its first byte; of its first item, for a block collection (the
        /// indentation of its contents, also when an anchor comes first).
        package var column: Int
        package var isFlow: Bool
        /// A map or a list (not a scalar or an alias).
        package var isCollection: Bool
        package var anchor: String?
        /// For a flow collection: the offset of its closing bracket.
        package var closing: Int?
    }

    /// A map's member: its key's text and place, and its value's place.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var keyStart: Int
        package var keyEnd: Int
        /// The key's 0-based column.
        package var keyColumn: Int
        package var value: Node
    }

    /// The case's own map.
    package var caseNode: Node
    /// The 0-based column of the case's name.
    package var caseKeyColumn: Int
    /// The case's members, in file order.
    package var members: [Member]
    /// The members of `samples` (in order), when the case has it as a map.
    package var samples: [Member]?

    /// The member `key` of the case.
    package func member(_ key: String) -> Member? { members.first { $0.key == key } }

    /// Reads where the case `caseName` of `bytes` and its samples are.
    package static func read(
        _ bytes: [UInt8], caseName: String, file: String
    ) throws(TargetFileEditError) -> SampleLayout {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skipped = bytes.starts(with: byteOrderMark) ? 3 : 0
        let text = Array(bytes.dropFirst(skipped))
        let result: Result<SampleLayout, TargetFileEditError> = text.withUnsafeBufferPointer { buffer in
            var walk = SampleWalk(
                events: EventReader(buffer), lines: LineStarts(buffer), buffer: buffer, skipped: skipped,
                caseName: caseName, file: file)
            do throws(TargetFileEditError) {
                return .success(try walk.run())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// The walk over the events to the one case, whose map is read two levels deep.
private struct SampleWalk {
    let events: EventReader
    let lines: LineStarts
    let buffer: UnsafeBufferPointer<UInt8>
    let skipped: Int
    let caseName: String
    let file: String
    /// The last mark placed and its offset in `buffer`.
    private var cursor = (line: -1, column: 0, offset: 0)

    init(
        events: EventReader, lines: LineStarts, buffer: UnsafeBufferPointer<UInt8>, skipped: Int, caseName: String,
        file: String
    ) {
        self.events = events
        self.lines = lines
        self.buffer = buffer
        self.skipped = skipped
        self.caseName = caseName
        self.file = file
    }

    mutating func run() throws(TargetFileEditError) -> SampleLayout {
        guard next()?.type == YAML_STREAM_START_EVENT, next()?.type == YAML_DOCUMENT_START_EVENT,
            next()?.type == YAML_MAPPING_START_EVENT
        else { throw refusal("its top level is not a map") }
        while let key = next(), key.type != YAML_MAPPING_END_EVENT {
            guard let value = next() else { throw refusal("it cannot be parsed") }
            guard key.type == YAML_SCALAR_EVENT, key.text == "cases", value.type == YAML_MAPPING_START_EVENT else {
                try skip(value)
                continue
            }
            while let name = next(), name.type != YAML_MAPPING_END_EVENT {
                guard let caseValue = next() else { throw refusal("it cannot be parsed") }
                guard name.type == YAML_SCALAR_EVENT, name.text == caseName else {
                    try skip(caseValue)
                    continue
                }
                guard caseValue.type == YAML_MAPPING_START_EVENT else {
                    throw refusal("case '\(caseName)' (line \(name.start.line + 1)) is not a map")
                }
                var members: [SampleLayout.Member] = []
                var samples: [SampleLayout.Member]?
                let caseNode = try node(from: caseValue) { key, value, walk throws(TargetFileEditError) in
                    var inner: [SampleLayout.Member] = []
                    let collect = key.text == "samples" && value.type == YAML_MAPPING_START_EVENT
                    let place = try walk.node(from: value) { sampleKey, sampleValue, walk throws(TargetFileEditError) in
                        let sampleNode = try walk.node(from: sampleValue)
                        if collect { inner.append(walk.member(sampleKey, sampleNode)) }
                        return sampleNode
                    }
                    if collect { samples = inner }
                    let member = walk.member(key, place)
                    members.append(member)
                    return place
                }
                return SampleLayout(
                    caseNode: caseNode, caseKeyColumn: name.start.column, members: members, samples: samples)
            }
        }
        throw refusal("it has no case '\(caseName)'")
    }

    /// Reads the node `first` starts to its end; for a map, `eachMember` reads each value (and
    /// gives its place) instead of the plain walk.
    mutating func node(
        from first: Event,
        eachMember: ((Event, Event, inout SampleWalk) throws(TargetFileEditError) -> SampleLayout.Node)? = nil
    ) throws(TargetFileEditError) -> SampleLayout.Node {
        let start = offset(first.start)
        switch first.type {
        case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT:
            return SampleLayout.Node(
                start: start, end: end(offset(first.end)), column: first.start.column, isFlow: false,
                isCollection: false, anchor: first.anchor)
        case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
            var lastEnd = start
            var column = first.start.column
            var isFirst = true
            while let event = next() {
                if event.type == YAML_MAPPING_END_EVENT || event.type == YAML_SEQUENCE_END_EVENT {
                    // The bracket's start before its end: offsets are counted on along the line.
                    let closing = first.isFlow ? offset(event.start) : nil
                    return SampleLayout.Node(
                        start: start, end: first.isFlow ? offset(event.end) : lastEnd, column: column,
                        isFlow: first.isFlow, isCollection: true, anchor: first.anchor, closing: closing)
                }
                if isFirst, !first.isFlow { column = event.start.column }
                isFirst = false
                if first.type == YAML_MAPPING_START_EVENT {
                    guard let value = next() else { break }
                    try skip(event)
                    if let eachMember {
                        lastEnd = try eachMember(event, value, &self).end
                    } else {
                        lastEnd = try node(from: value).end
                    }
                } else {
                    lastEnd = try node(from: event).end
                }
            }
            throw refusal("it cannot be parsed")
        default:
            throw refusal("it cannot be parsed")
        }
    }

    /// Reads past the node `first` starts, where nothing needs to be placed.
    mutating func skip(_ first: Event) throws(TargetFileEditError) {
        guard first.type == YAML_MAPPING_START_EVENT || first.type == YAML_SEQUENCE_START_EVENT else { return }
        var depth = 1
        while depth > 0, let event = next() {
            switch event.type {
            case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT: depth += 1
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT: depth -= 1
            default: break
            }
        }
        guard depth == 0 else { throw refusal("it cannot be parsed") }
    }

    mutating func member(_ key: Event, _ value: SampleLayout.Node) -> SampleLayout.Member {
        SampleLayout.Member(
            key: key.text, keyStart: offset(key.start), keyEnd: offset(key.end), keyColumn: key.start.column,
            value: value)
    }

    /// The end of a node ending at `offset`: a block scalar ends past its line breaks, in the next
    /// line's indentation; its end is taken back to the line break after its last character, so
    /// the breaks and blank lines after it stay in the file.
    private func end(_ offset: Int) -> Int {
        let local = offset - skipped
        // Any other node ends right after a character that is not a space or a line break.
        if local > 0, ![0x20, 0x0A, 0x0D].contains(buffer[local - 1]) { return offset }
        var lineStart = local
        while lineStart > 0, buffer[lineStart - 1] != 0x0A, buffer[lineStart - 1] != 0x0D { lineStart -= 1 }
        // Only a block scalar ends at a line's start or in its indentation; any other node ends
        // right after its last character.
        guard local > 0, buffer[lineStart..<local].allSatisfy({ $0 == 0x20 }) else { return offset }
        var back = lineStart
        while back > 0, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[back - 1]) { back -= 1 }
        var forward = back
        while forward < buffer.count, buffer[forward] != 0x0A, buffer[forward] != 0x0D { forward += 1 }
        return forward + skipped
    }

    /// The byte offset of `mark`: counted on from the last mark placed when it is on the same
    /// line and not before it, so a long line (a flow sample) is not walked again for each node.
    private mutating func offset(_ mark: (line: Int, column: Int)) -> Int {
        let known = cursor.line == mark.line && cursor.column <= mark.column ? cursor : nil
        let local = lines.offset(line: mark.line, column: mark.column, from: known.map { ($0.column, $0.offset) })
        cursor = (mark.line, mark.column, local)
        return local + skipped
    }

    private func next() -> Event? { events.next() }

    private func refusal(_ why: String) -> TargetFileEditError {
        TargetFileEditError(.invalidTargetFile, "cannot record a sample in \(file): \(why)")
    }
}
