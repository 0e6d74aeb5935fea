import TextSafety

/// A credential a new case takes as a value, given when it is called, instead of holding it.
package struct CredentialValue: Sendable, Equatable {
    /// Where it was, for the note (never the credential itself): `the query parameter access_token`,
    /// `the body field password`, `a path segment (a secret the request sends)`.
    package var place: String
    /// The case's value that stands for it.
    package var value: String

    package init(place: String, value: String) {
        self.place = place
        self.value = value
    }
}

extension NewCase {
    /// The one rule every writer of a case keeps for credentials outside headers (`request
    /// --save-as`, `import curl|har`, through ``render(apiName:sensitiveHeaders:sampleFileStem:emptySecretFallback:)``):
    /// a path or a task cannot read the environment, and a credential must not be written, so each
    /// - query or form parameter and body field (a JSON body at any depth, a form body written as
    ///   text when `isForm`) whose name looks like a credential's (`access_token`, `api_key`,
    ///   `password`, `client_secret`: `CredentialNames.looksSecret`), and
    /// - parameter, body field or path segment whose whole value is one of `secrets` (what the
    ///   request sends as a secret elsewhere: a secret header's value, the token after its scheme,
    ///   a password)
    /// becomes a string value of the case, `{name}`, given when it is called. A value that is
    /// already a placeholder is left as it is, so a second pass changes nothing. Returns the
    /// values made, in the order of the members.
    package static func credentialsAsValues(
        in members: inout [YAMLText.Entry], isForm: Bool, secrets: [(name: String, value: String)],
        taken: inout Set<String>
    ) -> [CredentialValue] {
        var made: [CredentialValue] = []
        let known = secrets.filter { !$0.value.isEmpty }
        /// The secret `text` is, by its value as written (a path segment's percent-decoded too).
        func secret(_ text: String) -> (name: String, value: String)? {
            guard !isPlaceholder(text) else { return nil }
            let decoded = PercentEncoding.decoded(text) ?? text
            // Compared as written too: a value's `{` is `{{` in the file.
            return known.first { $0.value == text || $0.value == decoded || literal($0.value) == text }
        }
        func value(for name: String, place: String) -> String {
            let value = uniqueValueName(name, taken: &taken)
            made.append(CredentialValue(place: place, value: value))
            return "{\(value)}"
        }
        if let pathIndex = members.firstIndex(where: { $0.key == "path" }),
            case .string(let path) = members[pathIndex].value
        {
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                guard let found = secret(String(segment)) else { return String(segment) }
                return value(for: found.name, place: "a path segment (the secret the request sends as \(found.name))")
            }
            members[pathIndex].value = .string(segments.joined(separator: "/"))
        }
        guard let taskIndex = members.firstIndex(where: { $0.key == "task" }),
            case .map(var task) = members[taskIndex].value
        else { return made }
        /// `yaml`, a parameter's or a field's value, or its placeholder; `keepsEmpty`: an empty
        /// field is left (a parameter's empty value is a credential given empty).
        func replacingParameter(_ name: String, _ yaml: YAMLText, place: String, keepsEmpty: Bool = false)
            -> YAMLText
        {
            switch yaml {
            case .string(let text) where isPlaceholder(text) || (keepsEmpty && text.isEmpty):
                return yaml
            case .list(let items) where CredentialNames.looksSecret(name):
                // A repeated parameter (`key=one&key=two`) is a list: a value for each of its items.
                return .list(items.map { replacingParameter(name, $0, place: place, keepsEmpty: keepsEmpty) })
            case _ where CredentialNames.looksSecret(name):
                return .string(value(for: name, place: place))
            case .string(let text):
                guard let found = secret(text) else { return yaml }
                return .string(value(for: name, place: place + " (the secret the request sends as \(found.name))"))
            default:
                return yaml
            }
        }
        func replacingFields(_ yaml: YAMLText) -> YAMLText {
            switch yaml {
            case .list(let items): return .list(items.map(replacingFields))
            case .map(let entries):
                return .map(
                    entries.map { entry in
                        let replaced =
                            if case .string = entry.value {
                                replacingParameter(
                                    entry.key, entry.value, place: "the body field " + entry.key, keepsEmpty: true)
                            } else {
                                replacingFields(entry.value)
                            }
                        return YAMLText.Entry(entry.key, replaced, comments: entry.comments)
                    })
            default: return yaml
            }
        }
        for (index, entry) in task.enumerated() {
            switch entry.key {
            case "parameters", "query":
                guard case .map(var parameters) = entry.value else { continue }
                for (offset, parameter) in parameters.enumerated() {
                    if case .map = parameter.value, !CredentialNames.looksSecret(parameter.key) {
                        // A nested object (JSON- or bracket-encoded parameters): its fields as a body's.
                        parameters[offset].value = replacingFields(parameter.value)
                        continue
                    }
                    parameters[offset].value = replacingParameter(
                        parameter.key, parameter.value, place: "the query parameter " + parameter.key)
                }
                task[index].value = .map(parameters)
            case "json":
                task[index].value = replacingFields(entry.value)
            case "data" where isForm:
                guard case .string(let text) = entry.value else { continue }
                // `name=value` pairs joined by `&`, as sent; only a credential's value changes.
                let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                    guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                    let name = String(pair[..<equals])
                    let decoded = PercentEncoding.decoded(name.replacing("+", with: " ")) ?? name
                    let fieldValue = String(pair[pair.index(after: equals)...])
                    guard !fieldValue.isEmpty else { return String(pair) }
                    let field = PercentEncoding.decoded(fieldValue.replacing("+", with: " ")) ?? fieldValue
                    if CredentialNames.looksSecret(decoded) && !isPlaceholder(fieldValue) {
                        return name + "=" + value(for: decoded, place: "the body field " + decoded)
                    }
                    guard let found = secret(field) else { return String(pair) }
                    return name + "="
                        + value(
                            for: decoded,
                            place: "the body field \(decoded) (the secret the request sends as \(found.name))")
                }
                task[index].value = .string(pairs.joined(separator: "&"))
            default:
                continue
            }
        }
        members[taskIndex].value = .map(task)
        return made
    }

    /// Whether `text` is one placeholder, `{name}`, as this rule writes.
    private static func isPlaceholder(_ text: String) -> Bool {
        text.hasPrefix("{") && text.hasSuffix("}") && text.count > 2
            && !text.dropFirst().dropLast().contains(where: { $0 == "{" || $0 == "}" })
    }

    /// The secrets a request sends that no other part of its case may hold in clear: each secret
    /// header's value and the credential after its scheme (`Bearer TOKEN`, `Basic …`), and the
    /// request's other secret values (a password given with `-u`), each with the name its value
    /// takes (the header's, lower-cased, or `secret`).
    package func sentSecrets(secretHeaderNames: Set<String>) -> [(name: String, value: String)] {
        var secrets: [(name: String, value: String)] = []
        for header in headers where header.isSecret || secretHeaderNames.contains(header.name.lowercased()) {
            let name = header.name.lowercased()
            secrets.append((name, header.value))
            if let space = header.value.firstIndex(of: " ") {
                secrets.append((name, String(header.value[header.value.index(after: space)...])))
            }
        }
        return secrets + secretValues.map { ("secret", $0) }
    }
}
