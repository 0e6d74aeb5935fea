import TextSafety

/// Target-file YAML being written (by `import openapi`, and a case `request --save-as` adds), as a
/// tree that renders to YAML the target-file loader reads back exactly: block style for the
/// structure, flow style for short leaves, and every string that could be read as anything else
/// double-quoted with escapes.
package indirect enum YAMLText: Sendable {
    /// A string, written as it is meant (quoted when needed).
    case string(String)
    /// An integer.
    case int(Int)
    /// A number as written in the spec (`2.50` stays `2.50`), or any plain scalar to keep as is.
    case number(String)
    case bool(Bool)
    case null
    case list([YAMLText])
    case map([Entry])

    /// A member of a map, with the comment lines written above it.
    package struct Entry: Sendable {
        package var key: String
        package var value: YAMLText
        package var comments: [String] = []

        package init(_ key: String, _ value: YAMLText, comments: [String] = []) {
            self.key = key
            self.value = value
            self.comments = comments
        }
    }

    /// The document's text: `header` comment lines, then the tree.
    package static func render(_ root: [Entry], header: [String]) -> String {
        // Written as bytes: appending to a String costs several times as much, and an imported
        // file is megabytes of short pieces.
        var out: [UInt8] = []
        for line in header { out.write(comment(line, indent: 0)) }
        Layout(step: 2).renderEntries(root, level: 0, indent: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `entries` as members of the file's `cases` map: keys at column `indent` + 1, each level
    /// below indented `step` more (the file's own indentation, so an added case matches it).
    package static func renderCases(_ entries: [Entry], indent: Int, step: Int) -> String {
        var out: [UInt8] = []
        Layout(step: step).renderEntries(entries, level: 1, indent: indent, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The entry as a member of a map at column `indent` + 1 (a recorded sample, `sample: …`):
    /// its value in flow style when `isFlow` (however long; `nil` when it has a key only block
    /// style can hold), else as a block whose short leaves may flow, as ``renderCases(_:indent:step:)``
    /// writes them.
    package static func renderMember(_ entry: Entry, indent: Int, step: Int, isFlow: Bool) -> String? {
        let pad = String(repeating: " ", count: indent)
        if isFlow {
            guard let flow = unboundedFlow(entry.value) else { return nil }
            return pad + key(entry.key) + ": " + flow + "\n"
        }
        guard case .map(let members) = entry.value, !members.isEmpty else {
            var out: [UInt8] = []
            Layout(step: step).renderEntries([entry], level: 2, indent: indent, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        return pad + key(entry.key) + ":\n" + renderBlockMembers(members, indent: indent + step, step: step)
    }

    /// `members` as a block map's lines at column `indent` + 1, short leaves in flow style.
    package static func renderBlockMembers(_ members: [Entry], indent: Int, step: Int) -> String {
        var out: [UInt8] = []
        Layout(step: step).renderEntries(members, level: 3, indent: indent, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The value in flow style on one line, however long or deep; `nil` when a key is too long
    /// for a flow map.
    package static func unboundedFlow(_ value: YAMLText) -> String? {
        switch value {
        case .list(let items):
            var parts: [String] = []
            for item in items {
                guard let part = unboundedFlow(item) else { return nil }
                parts.append(part)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        case .map(let entries):
            var parts: [String] = []
            for entry in entries {
                let name = key(entry.key)
                guard name.utf8.count <= maximumSimpleKeyLength, let part = unboundedFlow(entry.value) else {
                    return nil
                }
                parts.append(name + ": " + part)
            }
            return "{" + parts.joined(separator: ", ") + "}"
        default:
            return flow(value, budget: .max).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    private static func comment(_ text: String, indent: Int) -> String {
        String(repeating: " ", count: indent) + (text.isEmpty ? "#" : "# " + YAMLScalar.commentLine(text)) + "\n"
    }

    /// The longest key written as `key: value` (libyaml's simple-key limit is 1024 characters;
    /// counted here in bytes, which are never fewer); a longer one is written `? key`.
    package static let maximumSimpleKeyLength = 1000

    /// How deep each level is indented: 2 in files `import` writes, the file's own step in a case
    /// added to a file.
    private struct Layout {
        let step: Int

        func renderEntries(_ entries: [Entry], level: Int, indent: Int, into out: inout [UInt8]) {
            let pad = String(repeating: " ", count: indent)
            for entry in entries {
                for line in entry.comments { out.write(YAMLText.comment(line, indent: indent)) }
                let written = YAMLText.key(entry.key)
                // libyaml reads a key of more than 1024 characters only as an explicit key (`? key`).
                out.write(pad)
                if written.utf8.count > YAMLText.maximumSimpleKeyLength {
                    out.write("? ")
                    out.write(written)
                    out.write("\n")
                    out.write(pad)
                } else {
                    out.write(written)
                }
                out.write(":")
                renderValue(entry.value, level: level, indent: indent, into: &out)
            }
        }

        /// Writes a value after `key:` (or `- `): inline when it is a scalar or fits in a short flow
        /// collection, else on the following lines.
        func renderValue(_ value: YAMLText, level: Int, indent: Int, into out: inout [UInt8]) {
            // The file's structure (the top level and each case) stays in block style, however short.
            let mayFlow: Bool
            // An empty map has no block form: it is `{}` at any level.
            if case .map(let entries) = value { mayFlow = level > 1 || entries.isEmpty } else { mayFlow = true }
            if mayFlow, let flow = YAMLText.flow(value, budget: 100 - indent) {
                out.write(" ")
                out += flow
                out.write("\n")
                return
            }
            switch value {
            case .map(let entries):
                out.write("\n")
                renderEntries(entries, level: level + 1, indent: indent + step, into: &out)
            case .list(let items):
                out.write("\n")
                let pad = String(repeating: " ", count: indent + step)
                for item in items {
                    if case .map(let entries) = item, !entries.isEmpty,
                        entries.count == 1 || YAMLText.flow(item, budget: 100 - indent - step - 2) == nil
                    {
                        // `- key: value` with the rest of the map aligned under the first key.
                        var block: [UInt8] = []
                        renderEntries(entries, level: level + 2, indent: indent + step + 2, into: &block)
                        out.write(pad)
                        out.write("- ")
                        out += block.dropFirst(indent + step + 2)
                    } else {
                        out.write(pad)
                        out.write("-")
                        renderValue(item, level: level + 1, indent: indent + step, into: &out)
                    }
                }
            default:
                out.write(" ")
                out += YAMLText.flow(value, budget: .max) ?? []
                out.write("\n")
            }
        }
    }

    /// The value in flow style when it fits in `budget` characters, is at most three levels deep
    /// and holds no comments; scalars always fit.
    private static func flow(_ value: YAMLText, budget: Int) -> [UInt8]? {
        var remaining: Int
        switch value {
        case .list, .map: remaining = budget
        default: remaining = .max
        }
        // Most collections of an imported file are tried at every level and are far too long:
        // their raw length says so without quoting or writing anything.
        var estimate = remaining
        guard mayFit(value, remaining: &estimate) else { return nil }
        var out: [UInt8] = []
        return writeFlow(value, depth: 0, remaining: &remaining, into: &out) ? out : nil
    }

    /// Whether `value` may fit in flow style: `false` when even its unquoted text spends more than
    /// `remaining` (counted as ``writeFlow(_:depth:remaining:into:)`` counts; quoting only adds).
    private static func mayFit(_ value: YAMLText, remaining: inout Int) -> Bool {
        switch value {
        case .string(let string): remaining -= string.utf8.count
        case .number(let number): remaining -= number.utf8.count
        case .int, .null: remaining -= 1
        case .bool(let bool): remaining -= bool ? 4 : 5
        case .list(let items):
            remaining -= 2
            for item in items {
                guard mayFit(item, remaining: &remaining) else { return false }
                remaining -= 2
            }
        case .map(let entries):
            remaining -= 2
            for entry in entries {
                remaining -= entry.key.utf8.count + 4
                guard mayFit(entry.value, remaining: &remaining) else { return false }
            }
        }
        return remaining >= 0
    }

    /// Appends `value` in flow style to `out`, spending `remaining`; `false` as soon as it cannot
    /// fit (what was appended is then of no use). Every collection of an imported file is tried
    /// at each level, and most do not fit: the cheap way out comes first.
    private static func writeFlow(_ value: YAMLText, depth: Int, remaining: inout Int, into out: inout [UInt8]) -> Bool
    {
        let text: String
        switch value {
        case .string(let string):
            // Quoted, a string is only longer: a long description need not be scanned to fail.
            guard string.utf8.count <= remaining else { return false }
            text = scalar(string)
        case .int(let int): text = String(int)
        case .number(let number): text = number
        case .bool(let bool): text = bool ? "true" : "false"
        case .null: text = "null"
        case .list(let items):
            guard !items.isEmpty else {
                text = "[]"
                break
            }
            guard depth < 3 else { return false }
            remaining -= 2
            out.write("[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.write(", ") }
                guard writeFlow(item, depth: depth + 1, remaining: &remaining, into: &out) else { return false }
                remaining -= 2
            }
            out.write("]")
            return remaining >= 0
        case .map(let entries):
            guard !entries.isEmpty else {
                text = "{}"
                break
            }
            guard depth < 3, entries.allSatisfy({ $0.comments.isEmpty }) else { return false }
            remaining -= 2
            out.write("{")
            for (index, entry) in entries.enumerated() {
                let name = key(entry.key)
                // A long key is written `? key`, in block style only.
                guard name.utf8.count <= maximumSimpleKeyLength else { return false }
                remaining -= name.utf8.count + 4
                if index > 0 { out.write(", ") }
                out.write(name)
                out.write(": ")
                guard writeFlow(entry.value, depth: depth + 1, remaining: &remaining, into: &out) else { return false }
            }
            out.write("}")
            return remaining >= 0
        }
        remaining -= text.utf8.count
        guard remaining >= 0 else { return false }
        out.write(text)
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Digits and `_ . / - ( )` and the space.
    private static func isPlainPunctuationOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"),
            UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: ")"):
            true
        default: false
        }
    }

    /// A key: plain when safe, else quoted.
    package static func key(_ text: String) -> String { scalar(text) }

    /// A string scalar: plain when it is unmistakably a string in both block and flow context,
    /// else double-quoted.
    package static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : YAMLScalar.doubleQuoted(text)
    }

    /// Letters, digits, inner spaces and `_ . / - ( )` only, starting with a letter, `_` or `/`,
    /// and not a word the loader reads as a bool or null: such a string means the same plain in
    /// any context.
    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.last != UInt8(ascii: " ") else { return false }
        guard isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: "/") else { return false }
        // On the bytes in place: this runs for every key and string of an imported file.
        let isPlainByte = { (byte: UInt8) in isLetter(byte) || isPlainPunctuationOrDigit(byte) }
        guard
            text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(isPlainByte) })
                ?? text.utf8.allSatisfy(isPlainByte)
        else { return false }
        // The words below are at most five letters: a longer string need not be lowered to compare.
        guard text.utf8.count <= 5 else { return true }
        switch text.lowercased() {
        case "true", "false", "null", "yes", "no", "on", "off", "y", "n": return false
        default: return true
        }
    }
}

extension [UInt8] {
    /// Appends the text's bytes.
    fileprivate mutating func write(_ text: some StringProtocol) {
        append(contentsOf: text.utf8)
    }
}
