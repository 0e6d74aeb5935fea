import OrderedJSON
import PositionedYAML

/// Reading typed values out of nodes, reporting wrong types at the value's mark.
extension TargetFileValidator {
    /// A mapping's entries by key, after unknown keys were reported.
    ///
    /// Lookups scan by index and compare keys in place: a mapping has a handful of keys, and
    /// copying each `(key, value)` tuple to look at its key costs more than the scan.
    struct Fields {
        /// The entries, in file order.
        var entries: [Node.Entry]
        /// The mark of the mapping itself.
        var mark: Mark

        /// The position in `entries` of the entry whose key is `key`.
        func index(of key: String) -> Int? {
            entries.firstIndex(ofKey: key)
        }

        subscript(_ key: String) -> Node? {
            index(of: key).map { entries.value(at: $0) }
        }

        func keyMark(_ key: String) -> Mark? {
            index(of: key).map { entries.key(at: $0).mark }
        }

        func has(_ key: String) -> Bool {
            index(of: key) != nil
        }

        /// How many entries have keys in `keys`, and the positions of the first two, without
        /// collecting them (usually there is one).
        func positions(ofKeysIn keys: [String]) -> (count: Int, first: Int?, second: Int?) {
            var found: (count: Int, first: Int?, second: Int?) = (0, nil, nil)
            for index in entries.indices where entries.keyText(at: index).isKey(in: keys) {
                switch found.count {
                case 0: found.first = index
                case 1: found.second = index
                default: break
                }
                found.count += 1
            }
            return found
        }

        /// The entries whose keys are in `keys`, in file order (usually none or one).
        func entries(withKeyIn keys: [String]) -> [Node.Entry] {
            var found: [Node.Entry] = []
            for index in entries.indices where entries.keyText(at: index).isKey(in: keys) {
                found.append(entries[index])
            }
            return found
        }
    }

    /// How a node is described after "found": `string "abc"`, `integer 5`, `a list`.
    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            switch scalar.resolved {
            case .null: "null"
            case .bool(let flag): "bool \(flag)"
            case .int: "integer \(scalar.text)"
            case .double: "number \(scalar.text)"
            case .string(let text):
                "string \"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
            }
        case .sequence: "a list"
        case .mapping: "a map"
        }
    }

    mutating func typeError(expected: String, found node: Node) {
        var message = "expected \(expected), found \(Self.describe(node))"
        if case .scalar(let scalar) = node, expected == "a string", scalar.resolved != .null {
            message += "; quote it to make it a string: \"\(scalar.text)\""
        }
        error(message, at: node.mark)
    }

    /// The mapping's entries with keys checked against `allowed`; `nil` (reported) if not a mapping.
    /// `context` is only built when a key is reported.
    /// `hints` replace the did-you-mean for keys that are known mistakes (`form` in a task).
    mutating func fields(
        _ node: Node, allowed: [String], context: @autoclosure () -> String, expected: String = "a map",
        hints: [String: String] = [:]
    ) -> Fields? {
        guard case .mapping(let entries, let mark) = node else {
            typeError(expected: expected, found: node)
            return nil
        }
        var hasUnknownKey = false
        for index in entries.indices where !entries.keyText(at: index).isKey(in: allowed) {
            hasUnknownKey = true
            let key = entries.key(at: index)
            let hint =
                key.text == "<<"
                ? "; merge keys are not supported, repeat the keys instead"
                : hints[key.text].map { "; " + $0 } ?? Suggestion.didYouMean(key.text, in: allowed)
            error("unknown key '\(key.text)' \(context())\(hint)", at: key.mark)
        }
        // Unknown keys are rare: only then is a filtered copy worth making.
        return Fields(entries: hasUnknownKey ? entries.filter { allowed.contains($0.key.text) } : entries, mark: mark)
    }

    /// A mapping's entries without key checks (names chosen by the file: cases, headers, ...).
    mutating func entries(_ node: Node, expected: String = "a map") -> [Node.Entry]? {
        guard case .mapping(let entries, _) = node else {
            typeError(expected: expected, found: node)
            return nil
        }
        return entries
    }

    mutating func sequence(_ node: Node, expected: String = "a list") -> [Node]? {
        guard case .sequence(let items, _) = node else {
            typeError(expected: expected, found: node)
            return nil
        }
        return items
    }

    mutating func string(_ node: Node) -> String? {
        guard case .scalar(let scalar) = node, case .string(let text) = scalar.resolved else {
            typeError(expected: "a string", found: node)
            return nil
        }
        return text
    }

    mutating func integer(_ node: Node) -> Int? {
        guard case .scalar(let scalar) = node, case .int(let number) = scalar.resolved else {
            typeError(expected: "an integer", found: node)
            return nil
        }
        return number
    }

    mutating func number(_ node: Node) -> Double? {
        if case .scalar(let scalar) = node {
            switch scalar.resolved {
            case .int(let number): return Double(number)
            case .double(let number): return number
            default: break
            }
        }
        typeError(expected: "a number", found: node)
        return nil
    }

    /// A number as written (in JSON's spelling), for values sent as the file says them.
    mutating func decimal(_ node: Node) -> JSONNumber? {
        if case .scalar(let scalar) = node {
            switch scalar.resolved {
            case .int, .double:
                if let number = JSONNumber(decimal: scalar.text) { return number }
            default: break
            }
        }
        typeError(expected: "a number", found: node)
        return nil
    }

    mutating func bool(_ node: Node) -> Bool? {
        guard case .scalar(let scalar) = node, case .bool(let flag) = scalar.resolved else {
            typeError(expected: "a bool (true or false)", found: node)
            return nil
        }
        return flag
    }

    /// A one-line string (descriptions); trailing line breaks of folded scalars are dropped.
    mutating func oneLine(_ node: Node) -> String? {
        guard var text = string(node) else { return nil }
        while let last = text.utf8.last, last == UInt8(ascii: " ") || last >= 0x0A && last <= 0x0D || last >= 0x80,
            let character = text.last, character.isNewline || character == " "
        {
            text.removeLast()
        }
        if Self.containsLineBreak(text) {
            error("a description is one line", at: node.mark)
            return nil
        }
        return text
    }

    /// Whether `text` holds a character that is a newline (`Character.isNewline`: LF, VT, FF, CR,
    /// NEL, LS, PS), found on its UTF-8 bytes: each of these scalars always begins a character, so
    /// no grapheme breaking is needed.
    static func containsLineBreak(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            for index in bytes.indices {
                switch bytes[index] {
                case 0x0A...0x0D: return true
                case 0x85 where index >= 1 && bytes[index - 1] == 0xC2: return true
                case 0xA8...0xA9 where index >= 2 && bytes[index - 1] == 0x80 && bytes[index - 2] == 0xE2: return true
                default: continue
                }
            }
            return false
        }
    }

    /// A string naming one of `choices` (`method`, `encoding`, ...), with did-you-mean.
    mutating func choice(_ node: Node, from choices: [String], what: String) -> String? {
        guard let text = string(node) else { return nil }
        guard choices.contains(text) else {
            let hint = Suggestion.didYouMean(text, in: choices)
            error(
                "unknown \(what) '\(text)'"
                    + (hint.isEmpty ? "; expected one of " + choices.joined(separator: ", ") : hint), at: node.mark)
            return nil
        }
        return text
    }
}
