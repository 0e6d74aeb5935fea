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
        var out = ""
        for line in header { out += comment(line, indent: 0) }
        Layout(step: 2).renderEntries(root, level: 0, indent: 0, into: &out)
        return out
    }

    /// `entries` as members of the file's `cases` map: keys at column `indent` + 1, each level
    /// below indented `step` more (the file's own indentation, so an added case matches it).
    package static func renderCases(_ entries: [Entry], indent: Int, step: Int) -> String {
        var out = ""
        Layout(step: step).renderEntries(entries, level: 1, indent: indent, into: &out)
        return out
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
            var out = ""
            Layout(step: step).renderEntries([entry], level: 2, indent: indent, into: &out)
            return out
        }
        return pad + key(entry.key) + ":\n" + renderBlockMembers(members, indent: indent + step, step: step)
    }

    /// `members` as a block map's lines at column `indent` + 1, short leaves in flow style.
    package static func renderBlockMembers(_ members: [Entry], indent: Int, step: Int) -> String {
        var out = ""
        Layout(step: step).renderEntries(members, level: 3, indent: indent, into: &out)
        return out
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
            return flow(value, budget: .max)
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

        func renderEntries(_ entries: [Entry], level: Int, indent: Int, into out: inout String) {
            let pad = String(repeating: " ", count: indent)
            for entry in entries {
                for line in entry.comments { out += YAMLText.comment(line, indent: indent) }
                let written = YAMLText.key(entry.key)
                // libyaml reads a key of more than 1024 characters only as an explicit key (`? key`).
                out +=
                    written.utf8.count > YAMLText.maximumSimpleKeyLength
                    ? pad + "? " + written + "\n" + pad + ":" : pad + written + ":"
                renderValue(entry.value, level: level, indent: indent, into: &out)
            }
        }

        /// Writes a value after `key:` (or `- `): inline when it is a scalar or fits in a short flow
        /// collection, else on the following lines.
        func renderValue(_ value: YAMLText, level: Int, indent: Int, into out: inout String) {
            // The file's structure (the top level and each case) stays in block style, however short.
            let mayFlow: Bool
            // An empty map has no block form: it is `{}` at any level.
            if case .map(let entries) = value { mayFlow = level > 1 || entries.isEmpty } else { mayFlow = true }
            if mayFlow, let flow = YAMLText.flow(value, budget: 100 - indent) {
                out += " " + flow + "\n"
                return
            }
            switch value {
            case .map(let entries):
                out += "\n"
                renderEntries(entries, level: level + 1, indent: indent + step, into: &out)
            case .list(let items):
                out += "\n"
                let pad = String(repeating: " ", count: indent + step)
                for item in items {
                    if case .map(let entries) = item, !entries.isEmpty,
                        entries.count == 1 || YAMLText.flow(item, budget: 100 - indent - step - 2) == nil
                    {
                        // `- key: value` with the rest of the map aligned under the first key.
                        var block = ""
                        renderEntries(entries, level: level + 2, indent: indent + step + 2, into: &block)
                        let dropped = block.dropFirst(indent + step + 2)
                        out += pad + "- " + dropped
                    } else {
                        out += pad + "-"
                        renderValue(item, level: level + 1, indent: indent + step, into: &out)
                    }
                }
            default:
                out += " " + (YAMLText.flow(value, budget: .max) ?? "") + "\n"
            }
        }
    }

    /// The value in flow style when it fits in `budget` characters, is at most three levels deep
    /// and holds no comments; scalars always fit.
    private static func flow(_ value: YAMLText, budget: Int) -> String? {
        var remaining = budget
        switch value {
        case .list, .map: return flowText(value, depth: 0, remaining: &remaining)
        default:
            remaining = .max
            return flowText(value, depth: 0, remaining: &remaining)
        }
    }

    private static func flowText(_ value: YAMLText, depth: Int, remaining: inout Int) -> String? {
        let text: String
        switch value {
        case .string(let string): text = scalar(string)
        case .int(let int): text = String(int)
        case .number(let number): text = number
        case .bool(let bool): text = bool ? "true" : "false"
        case .null: text = "null"
        case .list(let items):
            guard !items.isEmpty else { text = "[]"; break }
            guard depth < 3 else { return nil }
            remaining -= 2
            var parts: [String] = []
            for item in items {
                guard let part = flowText(item, depth: depth + 1, remaining: &remaining) else { return nil }
                parts.append(part)
                remaining -= 2
            }
            return remaining >= 0 ? "[" + parts.joined(separator: ", ") + "]" : nil
        case .map(let entries):
            guard !entries.isEmpty else { text = "{}"; break }
            guard depth < 3, entries.allSatisfy({ $0.comments.isEmpty }) else { return nil }
            remaining -= 2
            var parts: [String] = []
            for entry in entries {
                let name = key(entry.key)
                // A long key is written `? key`, in block style only.
                guard name.utf8.count <= maximumSimpleKeyLength else { return nil }
                remaining -= name.utf8.count + 4
                guard let part = flowText(entry.value, depth: depth + 1, remaining: &remaining) else { return nil }
                parts.append(name + ": " + part)
            }
            return remaining >= 0 ? "{" + parts.joined(separator: ", ") + "}" : nil
        }
        remaining -= text.utf8.count
        return remaining >= 0 ? text : nil
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
        let isLetter = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        guard isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: "/") else { return false }
        guard
            text.utf8.allSatisfy({
                isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/")
                    || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")")
            })
        else { return false }
        switch text.lowercased() {
        case "true", "false", "null", "yes", "no", "on", "off", "y", "n": return false
        default: return true
        }
    }
}
