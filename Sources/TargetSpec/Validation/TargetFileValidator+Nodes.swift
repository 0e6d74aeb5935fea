/// Reading typed values out of nodes, reporting wrong types at the value's mark.
extension TargetFileValidator {
    /// A mapping's entries by key, after unknown keys were reported.
    struct Fields {
        /// The entries, in file order.
        var entries: [(key: Node.Scalar, value: Node)]
        /// The mark of the mapping itself.
        var mark: Mark

        subscript(_ key: String) -> Node? {
            entries.first { $0.key.text == key }?.value
        }

        func keyMark(_ key: String) -> Mark? {
            entries.first { $0.key.text == key }?.key.mark
        }

        func has(_ key: String) -> Bool {
            entries.contains { $0.key.text == key }
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
    mutating func fields(_ node: Node, allowed: [String], context: String, expected: String = "a map") -> Fields? {
        guard case .mapping(let entries, let mark) = node else {
            typeError(expected: expected, found: node)
            return nil
        }
        for entry in entries where !allowed.contains(entry.key.text) {
            let hint = entry.key.text == "<<"
                ? "; merge keys are not supported, repeat the keys instead"
                : Suggestion.didYouMean(entry.key.text, in: allowed)
            error("unknown key '\(entry.key.text)' \(context)\(hint)", at: entry.key.mark)
        }
        return Fields(entries: entries.filter { allowed.contains($0.key.text) }, mark: mark)
    }

    /// A mapping's entries without key checks (names chosen by the file: cases, headers, ...).
    mutating func entries(_ node: Node, expected: String = "a map") -> [(key: Node.Scalar, value: Node)]? {
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
        while let last = text.last, last.isNewline || last == " " { text.removeLast() }
        if text.contains(where: \.isNewline) {
            error("a description is one line", at: node.mark)
            return nil
        }
        return text
    }

    /// A string naming one of `choices` (`method`, `encoding`, ...), with did-you-mean.
    mutating func choice(_ node: Node, from choices: [String], what: String) -> String? {
        guard let text = string(node) else { return nil }
        guard choices.contains(text) else {
            let hint = Suggestion.didYouMean(text, in: choices)
            error("unknown \(what) '\(text)'" + (hint.isEmpty ? "; expected one of " + choices.joined(separator: ", ") : hint), at: node.mark)
            return nil
        }
        return text
    }
}
