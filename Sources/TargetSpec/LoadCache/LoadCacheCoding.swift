import PositionedYAML
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The load cache's entries are bytes in this one form, written and read here: LEB128 numbers,
/// strings as their length and UTF-8, and the YAML node tree as the loader built it (each node's
/// kind, mark, and text or children). Reading never trusts the bytes: every length is checked
/// against what is left, nesting is bounded, and anything out of place ends the reading (a miss).
///
/// The writer appends to memory of its own (growing by doubling) rather than to an array: a miss
/// writes every node of its files, and the array's checks on each append were a third of that.
/// A class, so that a copy is never mistaken for an independent writer.
final class LoadCacheWriter {
    private var start: UnsafeMutablePointer<UInt8>
    /// How many bytes were written.
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// What was written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// What was written, as `Data`.
    var data: Data { Data(bytes: start, count: count) }

    /// Appends what `other` wrote.
    func append(contentsOf other: LoadCacheWriter) {
        raw(UnsafeRawBufferPointer(start: other.start, count: other.count))
    }

    /// Appends `count` bytes of what `other` wrote, from `offset` on.
    func append(contentsOf other: LoadCacheWriter, from offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset + count <= other.count)
        raw(UnsafeRawBufferPointer(start: other.start + offset, count: count))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func ensure(_ extra: Int) {
        guard count + extra > capacity else { return }
        var grown = capacity * 2
        while grown < count + extra { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = grown
    }

    /// Makes room for `count` bytes at once.
    func reserve(_ count: Int) {
        ensure(count)
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        ensure(1)
        start[count] = byte
        count += 1
    }

    func number(_ value: UInt64) {
        ensure(10)
        var value = value
        while value >= 0x80 {
            start[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count += 1
            value >>= 7
        }
        start[count] = UInt8(value)
        count += 1
    }

    func int(_ value: Int64) {
        number(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            number(UInt64(utf8.count))
            raw(UnsafeRawBufferPointer(utf8))
        }
    }

    func raw(_ other: UnsafeRawBufferPointer) {
        guard let base = other.baseAddress, !other.isEmpty else { return }
        ensure(other.count)
        (start + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: other.count)
        count += other.count
    }

    func optionalString(_ text: String?) {
        if let text {
            append(1)
            string(text)
        } else {
            append(0)
        }
    }

    func strings(_ texts: [String]) {
        number(UInt64(texts.count))
        for text in texts { string(text) }
    }

    func raw(_ other: [UInt8]) {
        other.withUnsafeBytes { raw($0) }
    }

    func mark(_ mark: Mark) {
        number(UInt64(mark.line))
        number(UInt64(mark.column))
    }

    func scalar(_ scalar: Node.Scalar) {
        append((scalar.isPlain ? 1 : 0) | (scalar.tag == nil ? 0 : 2))
        string(scalar.text)
        if let tag = scalar.tag { string(tag) }
        mark(scalar.mark)
    }

    func node(_ node: Node) {
        switch node {
        case .scalar(let value):
            append(0)
            scalar(value)
        case .sequence(let items, let mark):
            append(1)
            self.mark(mark)
            number(UInt64(items.count))
            for item in items { self.node(item) }
        case .mapping(let entries, let mark):
            append(2)
            self.mark(mark)
            number(UInt64(entries.count))
            for entry in entries {
                scalar(entry.key)
                self.node(entry.value)
            }
        }
    }

    func fingerprint(_ fingerprint: FileFingerprint) {
        number(fingerprint.device)
        number(fingerprint.inode)
        int(fingerprint.size)
        int(fingerprint.modified)
        int(fingerprint.changed)
    }

    func probe(_ probe: FileProbes.Probe) {
        append(probe.kind.rawValue)
        string(probe.path)
        string(probe.root)
        string(probe.answer)
    }

    func diagnostic(_ diagnostic: Diagnostic) {
        append(diagnostic.severity == .error ? 1 : 0)
        string(diagnostic.file)
        if let mark = diagnostic.mark {
            append(1)
            self.mark(mark)
        } else {
            append(0)
        }
        string(diagnostic.message)
    }
}

/// Reads what ``LoadCacheWriter`` wrote; `nil` from any method means the bytes are not an entry.
package struct LoadCacheReader {
    let bytes: [UInt8]
    private(set) var position: Int

    /// Nodes nested deeper than this are refused (the YAML loader's own bound is lower).
    static let maximumDepth = 256

    init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func number() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = byte() {
            guard shift < 64 else { return nil }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    mutating func int() -> Int64? {
        number().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) }
    }

    /// A count of things that each take at least one byte: at most what is left.
    mutating func count() -> Int? {
        guard let value = number(), value <= UInt64(bytes.count - position) else { return nil }
        return Int(value)
    }

    mutating func string() -> String? {
        guard let length = count() else { return nil }
        let start = position
        position += length
        // Decoded, not validated: bytes that are not UTF-8 (a damaged entry) become U+FFFD, and the
        // text is only ever a YAML scalar's, validated again like any.
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<(start + length)]), as: UTF8.self)
        }
    }

    mutating func strings() -> [String]? {
        guard let count = count() else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count {
            guard let text = string() else { return nil }
            texts.append(text)
        }
        return texts
    }

    mutating func optionalString() -> String?? {
        switch byte() {
        case 0: return .some(nil)
        case 1: return string().map { .some($0) }
        default: return nil
        }
    }

    mutating func mark() -> Mark? {
        guard let line = number(), let column = number(), line <= UInt32.max, column <= UInt32.max else { return nil }
        return Mark(line: Int(line), column: Int(column))
    }

    mutating func scalar() -> Node.Scalar? {
        guard let flags = byte(), flags < 4, let text = string() else { return nil }
        var tag: String?
        if flags & 2 != 0 {
            guard let read = string() else { return nil }
            tag = read
        }
        guard let mark = mark() else { return nil }
        return Node.Scalar(text: text, isPlain: flags & 1 != 0, tag: tag, mark: mark)
    }

    mutating func node(depth: Int = 0) -> Node? {
        guard depth < Self.maximumDepth, let kind = byte() else { return nil }
        switch kind {
        case 0:
            return scalar().map(Node.scalar)
        case 1:
            guard let mark = mark(), let count = count() else { return nil }
            var items: [Node] = []
            items.reserveCapacity(count)
            for _ in 0..<count {
                guard let item = node(depth: depth + 1) else { return nil }
                items.append(item)
            }
            return .sequence(items, mark)
        case 2:
            guard let mark = mark(), let count = count() else { return nil }
            var entries: [Node.Entry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = scalar(), let value = node(depth: depth + 1) else { return nil }
                entries.append(Node.Entry(key: key, value: value))
            }
            return .mapping(entries, mark)
        default:
            return nil
        }
    }

    /// A file's tree as the streaming load left it: the root (its `cases` emptied when the cases
    /// were handed on one by one) and those cases, in order.
    package struct Tree {
        var root: Node
        var cases: [(name: Node.Scalar, node: Node)]
    }

    /// What ``TargetFileLoader/TreeWriter`` wrote, to the end of the bytes: every case, or only
    /// the one named `only` (the others are stepped over by their length, not read).
    mutating func tree(only: String? = nil) -> Tree? {
        guard let root = node(), let total = count() else { return nil }
        var cases: [(name: Node.Scalar, node: Node)] = []
        cases.reserveCapacity(only == nil ? total : 1)
        for _ in 0..<total {
            guard let length = count() else { return nil }
            let end = position + length
            guard let name = scalar(), position <= end else { return nil }
            if only == nil || name.text == only {
                guard let node = node(depth: 1), position == end else { return nil }
                cases.append((name, node))
            } else {
                position = end
            }
        }
        return isAtEnd ? Tree(root: root, cases: cases) : nil
    }

    mutating func probe() -> FileProbes.Probe? {
        guard let code = byte(), let kind = FileProbes.Probe.Kind(rawValue: code), let path = string(),
            let root = string(), let answer = string()
        else { return nil }
        return FileProbes.Probe(kind: kind, path: path, root: root, answer: answer)
    }

    mutating func fingerprint() -> FileFingerprint? {
        guard let device = number(), let inode = number(), let size = int(), let modified = int(),
            let changed = int()
        else { return nil }
        return FileFingerprint(device: device, inode: inode, size: size, modified: modified, changed: changed)
    }

    mutating func diagnostic() -> Diagnostic? {
        guard let severity = byte(), severity < 2, let file = string(), let hasMark = byte(), hasMark < 2 else {
            return nil
        }
        var mark: Mark?
        if hasMark == 1 {
            guard let read = self.mark() else { return nil }
            mark = read
        }
        guard let message = string() else { return nil }
        return Diagnostic(severity == 1 ? .error : .warning, file: file, mark: mark, message: message)
    }
}
