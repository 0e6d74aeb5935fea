import TargetModel
import TextSafety

/// Postman text with `{{variable}}` references, split and rewritten for one case: references
/// become `${VAR}` where a target file allows them (base URL, headers, auth) and `{value}`
/// placeholders of the case elsewhere (path, query, body), the values collected as it goes.
package struct PostmanTemplate {
    enum Piece: Equatable {
        case text(String)
        case variable(String)
    }

    /// The pieces of `text`: `{{name}}` (a name without braces) is a reference; anything else text.
    static func pieces(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            let after = rest[open.upperBound...]
            guard let close = after.firstRange(of: "}}"), !after[..<close.lowerBound].contains("{"),
                !after[..<close.lowerBound].isEmpty
            else {
                pieces.append(.text(String(rest[..<open.upperBound])))
                rest = after
                continue
            }
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            pieces.append(.variable(String(after[..<close.lowerBound])))
            rest = after[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces.reduce(into: []) { merged, piece in
            if case .text(let text) = piece, case .text(let previous)? = merged.last {
                merged[merged.count - 1] = .text(previous + text)
            } else {
                merged.append(piece)
            }
        }
    }

    static func references(in text: String) -> [String] {
        pieces(text).compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    let variables: PostmanVariables
    /// The case's values made so far, by Postman name: value name and entry.
    private(set) var values: [(postman: String, name: String, entry: YAMLText)] = []
    /// What the user must know (a secret asked for as a value, a renamed variable).
    private(set) var notes: [String] = []

    init(variables: PostmanVariables) { self.variables = variables }

    /// `text` where `${...}` references are allowed.
    func referencing(_ text: String) -> String {
        Self.pieces(text).map { piece in
            switch piece {
            case .text(let text): NewCase.literal(text)
            case .variable(let name): variables.reference(name)
            }
        }.joined()
    }

    /// `text` where only placeholders are allowed: each reference a string value of the case,
    /// whose default is the variable's value when it is defined and not a secret.
    mutating func placeholding(_ text: String) -> String {
        Self.pieces(text).map { piece in
            switch piece {
            case .text(let text): return NewCase.literal(text)
            case .variable(let name): return "{\(value(named: name, default: nil))}"
            }
        }.joined()
    }

    /// Query or form parameters as a map, a name given more than once as a list (`repeats`). A
    /// literal under a name that looks like a credential's (`access_token=…`) is not written:
    /// it becomes a value of the case without a default.
    mutating func parameters(_ pairs: [(name: String, value: String)]) -> (entries: [YAMLText.Entry], repeats: Bool) {
        var groups: [(name: String, values: [YAMLText])] = []
        for pair in pairs {
            let text = credential(named: pair.name, literal: pair.value) ?? placeholding(pair.value)
            if let index = groups.firstIndex(where: { $0.name == pair.name }) {
                groups[index].values.append(.string(text))
            } else {
                groups.append((pair.name, [.string(text)]))
            }
        }
        return (
            groups.map { YAMLText.Entry($0.name, $0.values.count == 1 ? $0.values[0] : .list($0.values)) },
            groups.contains { $0.values.count > 1 }
        )
    }

    /// A placeholder for a value the case takes instead of `literal`, when `name` (a
    /// parameter's, a part's or a JSON member's) looks like a credential's; `nil` otherwise.
    mutating func credential(named name: String, literal: String) -> String? {
        guard CredentialNames.looksSecret(name), !literal.isEmpty,
            Self.references(in: literal).isEmpty
        else { return nil }
        return "{\(value(named: name, default: nil, credential: true))}"
    }

    /// The value for the Postman variable (or `:parameter`) `name`, made on first use.
    mutating func value(named name: String, default given: String?, type: String = "string", credential: Bool = false)
        -> String
    {
        if let made = values.first(where: { $0.postman == name }) { return made.name }
        var valueName = PostmanVariables.identifier(name)
        let base = valueName
        var number = 2
        while values.contains(where: { $0.name == valueName }) {
            valueName = base + "_\(number)"
            number += 1
        }
        if valueName != name { notes.append("the variable '\(name)' is the value \(valueName)") }
        let isSecret = credential || (variables.variable(name)?.isSecret ?? CredentialNames.looksSecret(name))
        var members = [YAMLText.Entry("type", .string(type))]
        if type == "file" {
            // A file is given when calling.
        } else if let value = given.flatMap(variables.expanding) ?? variables.expanded(name), !isSecret {
            members.append(YAMLText.Entry("default", .string(value)))
        } else if isSecret {
            notes.append(
                "the value \(valueName) is a credential (\(credential ? "the parameter \(name)" : "{{\(name)}}")): it is not written; give it when calling"
            )
        }
        values.append((name, valueName, .map([YAMLText.Entry(valueName, .map(members))])))
        return valueName
    }
}
