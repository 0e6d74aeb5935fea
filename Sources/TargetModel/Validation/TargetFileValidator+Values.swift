import PositionedYAML

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A case's `values:` (associated values).
extension TargetFileValidator {
    static let valueKeys = ["type", "enum", "default", "optional", "description"]

    mutating func readValues(_ node: Node, caseName: String) -> [ValueSpec] {
        guard let items = sequence(node, expected: "a list of values such as '- name: string'") else { return [] }
        var values: [ValueSpec] = []
        values.reserveCapacity(items.count)
        for item in items {
            guard case .mapping(let entries, _) = item, entries.count == 1 else {
                error(
                    "each value is a one-key map such as '- name: string' or '- per_page: {type: int, default: 30}'",
                    at: item.mark)
                continue
            }
            let key = entries.key(at: 0)
            let name = key.text
            if !Self.isIdentifier(name) {
                error(
                    "invalid value name '\(name)'; a value name starts with a letter or '_' and holds letters, digits and '_'",
                    at: key.mark)
                continue
            }
            if values.contains(where: { $0.name == name }) {
                error("duplicate value '\(name)' in case '\(caseName)'", at: key.mark)
                continue
            }
            if let value = readValue(name: name, mark: key.mark, node: entries.value(at: 0), caseName: caseName) {
                values.append(value)
            } else {
                invalidValueNames.insert(name)
            }
        }
        return values
    }

    private mutating func readValue(name: String, mark: Mark, node: Node, caseName: String) -> ValueSpec? {
        if case .scalar = node {
            guard let type = readTypeName(node) else { return nil }
            return ValueSpec(name: name, type: type, mark: mark)
        }
        if case .sequence = node {
            guard let type = readListType(node) else { return nil }
            return ValueSpec(name: name, type: type, mark: mark)
        }
        guard
            let fields = fields(
                node, allowed: Self.valueKeys, context: "in value '\(name)' of case '\(caseName)'",
                expected: "a type name or a map such as {type: int, default: 30}")
        else { return nil }
        var type: ValueType?
        var allowedCases: [String]?
        if let enumNode = fields["enum"] {
            if let typeNode = fields["type"], case .scalar(let scalar) = typeNode,
                ["int", "double", "bool"].contains(scalar.text), let scalarType = ValueType(name: scalar.text)
            {
                // A typed enum: the value keeps its type, its arguments are limited to the cases.
                guard let cases = readTypedEnumCases(enumNode, type: scalarType) else { return nil }
                type = scalarType
                allowedCases = cases
            } else if let typeNode = fields["type"], case .scalar(let scalar) = typeNode,
                !["enum", "string"].contains(scalar.text)
            {
                error(
                    "value '\(name)' has both 'type: \(scalar.text)' and 'enum'; an enum's type is string, int, double or bool (or drop 'type')",
                    at: typeNode.mark)
                return nil
            } else {
                type = readEnumCases(enumNode).map(ValueType.enumeration)
            }
        } else if let typeNode = fields["type"] {
            if case .sequence = typeNode { type = readListType(typeNode) } else { type = readTypeName(typeNode) }
        } else {
            error("value '\(name)' needs a 'type' (string, int, double, bool, file) or an 'enum'", at: fields.mark)
            return nil
        }
        let description = fields["description"].flatMap { oneLine($0) }
        guard let type else { return nil }
        var isOptional = false
        if let optionalNode = fields["optional"] {
            guard let flag = bool(optionalNode) else { return nil }
            isOptional = flag
        }
        var defaultValue: ArgumentValue?
        if let defaultNode = fields["default"] {
            if case .scalar(let scalar) = defaultNode, scalar.resolved == .null {
                error(
                    "value '\(name)' cannot default to null; write 'optional: true' to leave it out when not given",
                    at: defaultNode.mark)
                return nil
            }
            if isOptional {
                error(
                    "value '\(name)' is optional and has a default; drop one (an optional value is left out when not given, a default is sent)",
                    at: defaultNode.mark)
                return nil
            }
            guard let converted = readDefault(defaultNode, type: type, valueName: name) else { return nil }
            if let allowedCases, !ArgumentBinder.isOneOf(converted, allowedCases) {
                error(
                    "default '\(converted.text)' of value '\(name)' is not one of \(allowedCases.joined(separator: ", "))",
                    at: defaultNode.mark)
                return nil
            }
            defaultValue = converted
        }
        var value = ValueSpec(
            name: name, type: type, defaultValue: defaultValue, isOptional: isOptional, description: description,
            mark: mark)
        value.allowedCases = allowedCases
        return value
    }

    private mutating func readTypeName(_ node: Node) -> ValueType? {
        guard let text = string(node) else { return nil }
        if text == "enum" {
            error("an enum value lists its cases: {enum: [a, b]}", at: node.mark)
            return nil
        }
        guard let type = ValueType(name: text) else {
            let hint = Suggestion.didYouMean(text, in: ValueType.names)
            error(
                "unknown value type '\(text)'"
                    + (hint.isEmpty ? "; types: " + ValueType.names.joined(separator: ", ") : hint), at: node.mark)
            return nil
        }
        return type
    }

    /// `[string]`, `[int]`, `[enum: [a, b]]` (one element type, in a one-element list).
    private mutating func readListType(_ node: Node) -> ValueType? {
        let expected = "a list type has one element type, such as [string] or [enum: [a, b]]"
        guard case .sequence(let items, _) = node, items.count == 1, let item = items.first else {
            error(expected, at: node.mark)
            return nil
        }
        let element: ValueType?
        switch item {
        case .scalar:
            element = readTypeName(item)
        case .mapping(let entries, _) where entries.count == 1 && entries.key(at: 0).text == "enum":
            element = readEnumCases(entries.value(at: 0)).map(ValueType.enumeration)
        default:
            error(expected, at: item.mark)
            return nil
        }
        guard let element else { return nil }
        if element == .file {
            error("a list of files is not supported; declare one file value per file", at: item.mark)
            return nil
        }
        return .list(element)
    }

    private mutating func readEnumCases(_ node: Node) -> [String]? {
        guard let items = sequence(node, expected: "a list of strings such as [open, closed]") else { return nil }
        var cases: [String] = []
        // A set beside the list: a file's enum of many thousand cases is checked in one pass.
        var seen = Set<String>()
        var isValid = true
        for item in items {
            guard let text = string(item) else {
                isValid = false
                continue
            }
            if !seen.insert(text).inserted {
                error("duplicate enum case '\(text)'", at: item.mark)
                isValid = false
            }
            cases.append(text)
        }
        if items.isEmpty {
            error("an enum needs at least one case", at: node.mark)
            return nil
        }
        return isValid ? cases : nil
    }

    /// The cases of `{type: int|double|bool, enum: [...]}`, each of that type, as written.
    private mutating func readTypedEnumCases(_ node: Node, type: ValueType) -> [String]? {
        guard let items = sequence(node, expected: "a list of \(type.name) cases such as [1, 2]") else { return nil }
        var cases: [String] = []
        // Compared by value, as Swift compares raw values: `1.0`, `1.00` and `1e0` are one case
        // (`generate swift` would write an enum that does not compile).
        var seen: [Double: String] = [:]
        var seenTexts = Set<String>()
        var isValid = true
        for item in items {
            guard let converted = readDefault(item, type: type, valueName: "") else {
                isValid = false
                continue
            }
            let text = converted.text
            let value: Double? =
                switch converted {
                case .int(let number): Double(exactly: number)
                case .double(let number): number.doubleValue
                default: nil
                }
            if let value, let first = seen[value] {
                let same = first == text ? "" : " (the same number as '\(first)')"
                error("duplicate enum case '\(text)'\(same)", at: item.mark)
                isValid = false
            } else if value == nil, !seenTexts.insert(text).inserted {
                error("duplicate enum case '\(text)'", at: item.mark)
                isValid = false
            }
            if let value, seen[value] == nil { seen[value] = text }
            cases.append(text)
        }
        if items.isEmpty {
            error("an enum needs at least one case", at: node.mark)
            return nil
        }
        return isValid ? cases : nil
    }

    /// A default of the value's type; a file default is a path to an existing file.
    private mutating func readDefault(_ node: Node, type: ValueType, valueName: String) -> ArgumentValue? {
        switch type {
        case .list(let element):
            guard let items = sequence(node, expected: "a list such as [a, b]") else { return nil }
            var elements: [ArgumentValue] = []
            for item in items {
                guard let converted = readDefault(item, type: element, valueName: valueName) else { return nil }
                elements.append(converted)
            }
            return .list(elements)
        case .string:
            return string(node).map(ArgumentValue.string)
        case .int:
            return integer(node).map(ArgumentValue.int)
        case .double:
            return decimal(node).map(ArgumentValue.double)
        case .bool:
            return bool(node).map(ArgumentValue.bool)
        case .enumeration(let cases):
            guard let text = string(node) else { return nil }
            guard cases.contains(text) else {
                error(
                    "default '\(text)' of value '\(valueName)' is not one of \(cases.joined(separator: ", "))",
                    at: node.mark)
                return nil
            }
            return .enumCase(text)
        case .file:
            guard let text = string(node) else { return nil }
            let template = Template(literal: text, mark: node.mark)
            guard checkFileExists(template, what: "default file") else { return nil }
            return .file(path: resolvedPath(text))
        }
    }
}
