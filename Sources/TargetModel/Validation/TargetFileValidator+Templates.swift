import OrderedJSON
import PositionedYAML

/// Reading template strings and JSON templates, checking where placeholders and `${VAR}` may go.
extension TargetFileValidator {
    /// What a template position allows.
    struct TemplatePosition {
        /// Names the position in messages: "a path", "the API's headers".
        var name: String
        /// `nil`: placeholders are not allowed here; otherwise how their uses count.
        var placeholderRole: PlaceholderRole?
        /// Whether `${VAR}` may appear.
        var allowsEnvironment: Bool
    }

    /// Parses a string node as a template, reporting syntax problems and misplaced parts.
    mutating func template(_ node: Node, at position: TemplatePosition) -> Template? {
        guard case .scalar(let scalar) = node, case .string(let text) = scalar.resolved else {
            typeError(expected: "a string", found: node)
            return nil
        }
        return template(text: text, scalar: scalar, at: position)
    }

    /// Parses `text` (a scalar's resolved text) as a template.
    mutating func template(text: String, scalar: Node.Scalar, at position: TemplatePosition) -> Template {
        // Positions inside the text are exact for single-line scalars; a quote adds one column.
        let (template, problems) = TemplateParser.parse(
            text, mark: scalar.mark, contentOffset: Self.containsLineBreak(text) ? nil : (scalar.isPlain ? 0 : 1))
        for problem in problems {
            error(problem.message, at: problem.mark)
        }
        // A template that is one literal (most are) has nothing more to check.
        for segment in template.isSourceLiteral ? [] : template.segments {
            switch segment {
            case .literal:
                continue
            case .environment(let reference):
                guard !position.allowsEnvironment else {
                    environmentVariableNames.insert(reference.name)
                    continue
                }
                error(
                    "'${\(reference.name)}' is not allowed in \(position.name); environment variables may appear in baseURL, headers, auth and environments (write '$${' for a literal '${')",
                    at: reference.mark)
            case .placeholder(let name, let mark):
                if let role = position.placeholderRole {
                    placeholderUses.append(
                        PlaceholderUse(name: name, mark: mark, role: role, positionName: position.name))
                } else {
                    error(
                        "placeholder '{\(name)}' is not allowed in \(position.name); placeholders may appear in a case's path, headers, task and samples (write '{{' for a literal '{')",
                        at: mark)
                }
            }
        }
        return template
    }

    /// A JSON-shaped node (json bodies, parameters, query, JSON samples) as a `JSONTemplate`.
    mutating func jsonTemplate(_ node: Node, role: PlaceholderRole, positionName: String) -> JSONTemplate? {
        switch node {
        case .scalar(let scalar):
            // A number is sent as written, whatever its size (`12345678901234567890`, `-0`,
            // `1e400`): held as its text, never as an Int or a Double that would change it.
            if let number = NumberScalar.jsonNumber(scalar) {
                if let integer = Int(number.text), String(integer) == number.text { return .int(integer) }
                return .double(number)
            }
            switch scalar.resolved {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .int(let number): return .int(number)
            case .double(let number): return .double(JSONNumber(number) ?? 0)
            case .string(let text):
                let position = TemplatePosition(name: positionName, placeholderRole: role, allowsEnvironment: false)
                let parsed = template(text: text, scalar: scalar, at: position)
                if let solo = parsed.soloPlaceholderWithMark {
                    return .placeholder(name: solo.name, mark: solo.mark)
                }
                return .string(parsed)
            }
        case .sequence(let items, _):
            var result: [JSONTemplate] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard let converted = jsonTemplate(item, role: role, positionName: positionName) else { continue }
                markLone(converted)
                result.append(converted)
            }
            return .array(result)
        case .mapping(let entries, let mark):
            // `{q: {q}}` in a flow map: YAML reads the unquoted `{q}` as a map {q: null}.
            if entries.count == 1, case .scalar(let value) = entries.value(at: 0), value.isPlain, value.text.isEmpty,
                Self.isIdentifier(entries.keyText(at: 0))
            {
                let name = entries.keyText(at: 0)
                placeholderUses.append(PlaceholderUse(name: name, mark: mark, role: role, positionName: positionName))
                error(
                    "{\(name)} without quotes is a YAML map, not a placeholder; write \"{\(name)}\" in quotes", at: mark
                )
                return nil
            }
            return .object(jsonMembers(entries, role: role, positionName: positionName))
        }
    }

    /// A map's entries as JSON members (keys are taken literally).
    mutating func jsonMembers(_ entries: [Node.Entry], role: PlaceholderRole, positionName: String) -> [JSONTemplate
        .Member]
    {
        var members: [JSONTemplate.Member] = []
        members.reserveCapacity(entries.count)
        for index in entries.indices {
            if let value = jsonTemplate(entries.value(at: index), role: role, positionName: positionName) {
                markLone(value)
                members.append(JSONTemplate.Member(key: entries.keyText(at: index), value: value))
            }
        }
        return members
    }

    /// Marks the use just recorded as lone in a JSON member or element, when `template` is one
    /// lone placeholder.
    mutating func markLone(_ template: JSONTemplate) {
        if case .placeholder = template { markLastUse(.json) }
    }

    /// The same for a header or a multipart part.
    mutating func markLone(_ template: Template, in place: LonePlace) {
        if template.soloPlaceholder != nil { markLastUse(place) }
    }

    private mutating func markLastUse(_ place: LonePlace) {
        guard !placeholderUses.isEmpty else { return }
        placeholderUses[placeholderUses.count - 1].lonePlace = place
    }

    /// A `headers:` map: valid names, string values as templates.
    mutating func readHeaders(_ node: Node, at position: TemplatePosition) -> [HeaderSpec] {
        guard let entries = entries(node, expected: "a map of header names to values") else { return [] }
        var headers: [HeaderSpec] = []
        headers.reserveCapacity(entries.count)
        for index in entries.indices {
            let key = entries.key(at: index)
            if !Self.isToken(key.text) {
                error(
                    "invalid header name '\(key.text)'; header names are letters, digits and !#$%&'*+-.^_`|~",
                    at: key.mark)
            }
            let valueNode = entries.value(at: index)
            if let value = template(valueNode, at: position) {
                markLone(value, in: .header)
                refuseLineBreaks(in: value, field: "header '\(key.text)'", at: valueNode.mark)
                headers.append(HeaderSpec(name: key.text, value: value))
            }
        }
        return headers
    }

    /// Refuses CR, LF or NUL in the literal text of a header-like field (a header value, a
    /// multipart part's name, file name or MIME type): written as YAML escapes (`"\r\n"`), they
    /// would start a line of their own on the wire. Values bound later are checked when built.
    mutating func refuseLineBreaks(in template: Template, field: String, at mark: Mark) {
        let holdsLineBreak =
            template.isSourceLiteral
            ? HeaderLine.holdsLineBreak(template.source)
            : template.segments.contains {
                if case .literal(let text) = $0 { HeaderLine.holdsLineBreak(text) } else { false }
            }
        if holdsLineBreak {
            error("\(field) holds a line break or NUL character; header lines cannot contain them", at: mark)
        }
    }

    /// The same check for a plain string field.
    mutating func refuseLineBreaks(in text: String, field: String, at mark: Mark) {
        if HeaderLine.holdsLineBreak(text) {
            error("\(field) holds a line break or NUL character; header lines cannot contain them", at: mark)
        }
    }
}
