import OrderedJSON
import TargetModel
import TextSafety

/// The `{{variables}}` of a Postman collection and its environment file, and how each is
/// written in a target file: `${VAR}` (or `${secret:VAR}`) where references are allowed,
/// `{value}` placeholders elsewhere.
package struct PostmanVariables: Sendable {
    /// A variable as Postman defines it.
    package struct Variable: Sendable {
        package var name: String
        package var value: String
        package var isSecret: Bool
    }

    /// The collection's `variable` list, in order.
    package var collection: [Variable] = []
    /// The environment file's name and `values`, when one was given.
    package var environmentName: String?
    package var environment: [Variable] = []
    /// Variables that refer to themselves through others (`{{a}}` → `{{b}}` → `{{a}}`): never expanded.
    package var cyclic: Set<String> = []

    /// The most references followed while expanding one variable's value.
    static let maximumExpansionDepth = 16

    /// Marks the variables `names` secret wherever they are defined: a variable an auth scheme
    /// reads is a credential whatever its name (`{{jwt}}` for a bearer token), so its value is
    /// never written and samples that echo it have it redacted.
    mutating func markSecret(_ names: Set<String>) {
        guard !names.isEmpty else { return }
        for index in collection.indices where names.contains(collection[index].name) {
            collection[index].isSecret = true
        }
        for index in environment.indices where names.contains(environment[index].name) {
            environment[index].isSecret = true
        }
    }

    /// Reads a `variable`/`values` list at `path`: entries with `key` and `value`; disabled
    /// ones skipped.
    static func read(_ list: JSONValue?, at path: String) throws(RequestImportError) -> [Variable] {
        guard let list, list != .null else { return [] }
        guard let entries = list.arrayValue else { throw RequestImportError("not a list (at \(path))") }
        var variables: [Variable] = []
        for (offset, entry) in entries.enumerated() {
            let at = "\(path)[\(offset)]"
            guard entry.objectValue != nil else { throw RequestImportError("not an object (at \(at))") }
            if entry["disabled"]?.boolValue == true || entry["enabled"]?.boolValue == false { continue }
            guard let name = (entry["key"] ?? entry["id"])?.stringValue, !name.isEmpty else {
                throw RequestImportError("a variable without a key (at \(at).key)")
            }
            let value: String
            switch entry["value"] {
            case .none, .some(.null): value = ""
            case .some(let scalar):
                guard
                    let text = scalar.stringValue ?? scalar.boolValue.map({ $0 ? "true" : "false" })
                        ?? (scalar.numberValue != nil ? scalar.description : nil)
                else { throw RequestImportError("the variable \(name)'s value is not a scalar (at \(at).value)") }
                value = text
            }
            variables.append(
                Variable(
                    name: name, value: value,
                    isSecret: entry["type"]?.stringValue == "secret" || CredentialNames.looksSecret(name)))
        }
        return variables
    }

    /// The variable `name` as the importer sees it: the environment file's wins, as in Postman.
    func variable(_ name: String) -> Variable? {
        environment.last { $0.name == name } ?? collection.last { $0.name == name }
    }

    /// `name` as a `${...}` variable or a value name: `[A-Za-z_][A-Za-z0-9_]*`, other
    /// characters as `_`.
    static func identifier(_ name: String) -> String {
        var mapped = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    switch scalar {
                    case "a"..."z", "A"..."Z", "0"..."9", "_": scalar
                    default: "_"
                    }
                }))
        if mapped.isEmpty || mapped.first?.isNumber == true { mapped = "_" + mapped }
        return mapped
    }

    /// Finds the variables whose values lead back to themselves.
    mutating func findCycles() {
        var all: [String: String] = [:]
        for variable in collection + environment { all[variable.name] = variable.value }
        for name in all.keys {
            var stack = PostmanTemplate.references(in: all[name] ?? "")
            var seen = Set<String>()
            var steps = 0
            while let next = stack.popLast(), steps < 10_000 {
                steps += 1
                if next == name {
                    cyclic.insert(name)
                    break
                }
                guard seen.insert(next).inserted, let value = all[next] else { continue }
                stack += PostmanTemplate.references(in: value)
            }
        }
    }

    /// The value of `name` with the variables it refers to expanded; `nil` when it is not
    /// defined, a secret, or refers (even indirectly) to one, to an undefined one or to itself.
    func expanded(_ name: String, depth: Int = 0) -> String? {
        guard depth < Self.maximumExpansionDepth, !cyclic.contains(name), let variable = variable(name),
            !variable.isSecret
        else { return nil }
        var result = ""
        for piece in PostmanTemplate.pieces(variable.value) {
            switch piece {
            case .text(let text): result += text
            case .variable(let inner):
                guard let value = expanded(inner, depth: depth + 1) else { return nil }
                result += value
            }
        }
        return result
    }

    /// `text` with its references expanded; `nil` when one cannot be (see ``expanded(_:depth:)``).
    func expanding(_ text: String) -> String? {
        var result = ""
        for piece in PostmanTemplate.pieces(text) {
            switch piece {
            case .text(let text): result += text
            case .variable(let name):
                guard let value = expanded(name) else { return nil }
                result += value
            }
        }
        return result
    }

    /// A variable's value for an environment's `variables`: its references as `${VAR}`.
    func environmentValue(_ variable: Variable) -> String {
        PostmanTemplate.pieces(variable.value).map { piece in
            switch piece {
            case .text(let text): NewCase.literal(text)
            case .variable(let name): reference(name)
            }
        }.joined()
    }

    /// `${VAR}` or, for a secret, `${secret:VAR:-}`; one the collection does not define is
    /// `${VAR:-}`: empty when unset, so the file's own offline `check` needs no variable set
    /// (as `import openapi` writes its fallbacks).
    func reference(_ name: String) -> String {
        let defined = variable(name)
        let isSecret = defined?.isSecret ?? CredentialNames.looksSecret(name)
        if isSecret { return "${secret:\(Self.identifier(name)):-}" }
        return defined == nil ? "${\(Self.identifier(name)):-}" : "${\(Self.identifier(name))}"
    }

    /// The base URL `origin` (`{{baseUrl}}`, `https://{{host}}`, `https://host`) where references
    /// are allowed. A variable the collection does not define falls back to what makes a URL
    /// when unset, as `import openapi` does for a server it cannot resolve: the whole origin to
    /// `http://localhost`, a host to `localhost`, a scheme to `http`.
    func baseURL(_ origin: String) -> String {
        let pieces = PostmanTemplate.pieces(origin)
        return pieces.enumerated().map { offset, piece in
            switch piece {
            case .text(let text): return NewCase.literal(text)
            case .variable(let name):
                guard variable(name) == nil, !CredentialNames.looksSecret(name) else { return reference(name) }
                var fallback = ""
                if pieces.count == 1 {
                    fallback = Self.fallbackBaseURL
                } else if offset > 0, case .text(let before) = pieces[offset - 1], before.hasSuffix("://") {
                    fallback = "localhost"
                } else if offset == 0, case .text(let after) = pieces[1], after.hasPrefix("://") {
                    fallback = "http"
                }
                return "${\(Self.identifier(name)):-\(fallback)}"
            }
        }.joined()
    }

    /// What an undefined base URL variable stands for when it is unset.
    static let fallbackBaseURL = "http://localhost"
}
