import TargetModel

/// A case's associated value as the importer writes it.
struct ValueDraft {
    indirect enum Kind: Equatable {
        case string, int, double, bool, file
        case enumeration([String])
        case list(Kind)

        /// The type's name in a note: `int`, `double`, `bool`.
        var typeName: String {
            if case .string(let name) = yaml { return name }
            return "a list"
        }

        var yaml: YAMLText {
            switch self {
            case .string: .string("string")
            case .int: .string("int")
            case .double: .string("double")
            case .bool: .string("bool")
            case .file: .string("file")
            case .enumeration(let cases): .map([YAMLText.Entry("enum", .list(cases.map { .string($0) }))])
            case .list(let element): .list([element.yaml])
            }
        }
    }

    var name: String
    var kind: Kind
    var defaultValue: YAMLText?
    var optional: Bool
    var description: String?
    /// The argument `check` uses, when one could be made.
    var example: YAMLText?
    /// Whether the example comes from the spec (then it is used even for an optional value).
    var exampleIsExplicit = false
    /// An int, double or bool enum's cases (`{type: int, enum: [1, 2]}`): the value keeps its type.
    var allowedCases: [YAMLText]?

    /// `name: TYPE` when nothing else is said, else the long form.
    var entry: YAMLText.Entry {
        if defaultValue == nil, !optional, description == nil, allowedCases == nil {
            return YAMLText.Entry(name, kind.yaml)
        }
        var members: [YAMLText.Entry] = []
        if let allowedCases {
            members.append(YAMLText.Entry("type", kind.yaml))
            members.append(YAMLText.Entry("enum", .list(allowedCases)))
        } else if case .enumeration = kind, case .map(let written) = kind.yaml {
            members += written
        } else {
            members.append(YAMLText.Entry("type", kind.yaml))
        }
        if let defaultValue { members.append(YAMLText.Entry("default", defaultValue)) }
        if optional, defaultValue == nil { members.append(YAMLText.Entry("optional", .bool(true))) }
        if let description { members.append(YAMLText.Entry("description", .string(description))) }
        return YAMLText.Entry(name, .map(members))
    }

    /// `value` as an argument of this kind, or `nil` when it is not one (a list element holding a
    /// comma cannot be given on the command line or in an example).
    static func argument(_ value: YAMLText, of kind: Kind) -> YAMLText? {
        switch (kind, value) {
        case (.string, .string), (.file, .string): return value
        case (.string, .int(let int)): return .string(String(int))
        case (.string, .number(let text)): return .string(text)
        case (.string, .bool(let bool)): return .string(bool ? "true" : "false")
        case (.int, .int): return value
        case (.double, .int(let int)): return .number(String(int))
        // A double value takes finite numbers only (`1e400` is no argument).
        case (.double, .number(let text)): return Double(text).map(\.isFinite) == true ? value : nil
        case (.bool, .bool): return value
        case (.enumeration(let cases), .string(let text)): return cases.contains(text) ? value : nil
        case (.list(let element), .list(let items)):
            var arguments: [YAMLText] = []
            for item in items {
                guard let argument = argument(item, of: element) else { return nil }
                if case .string(let text) = argument, text.contains(",") { return nil }
                arguments.append(argument)
            }
            return .list(arguments)
        default: return nil
        }
    }

    /// `argument` when it is one of `allowedCases` (or there are none).
    func allowing(_ argument: YAMLText?) -> YAMLText? {
        guard let allowedCases, let argument else { return argument }
        let key = Self.caseKey(argument)
        return allowedCases.contains { Self.caseKey($0) == key } ? argument : nil
    }

    /// What makes two scalar cases the same: numbers compared as numbers (`1` and `1.0`).
    static func caseKey(_ value: YAMLText) -> String {
        switch value {
        case .int(let int): "n" + String(Double(int))
        case .number(let text): "n" + (Double(text).map { String($0) } ?? text)
        case .bool(let bool): bool ? "true" : "false"
        case .string(let text): "s" + text
        default: ""
        }
    }

    /// A made-up argument of this kind, for `check`: the first enum case, `string`, 1, 1.5, true.
    static func generated(_ kind: Kind, format: String?) -> YAMLText? {
        switch kind {
        case .string: .string(SchemaSampler.string(format: format, minLength: nil))
        case .int: .int(1)
        case .double: .number("1.5")
        case .bool: .bool(true)
        case .file: nil
        case .enumeration(let cases): cases.first.map { .string($0) }
        case .list(let element): generated(element, format: format).map { .list([$0]) }
        }
    }
}
