import OrderedJSON
import TargetModel
import TextSafety

/// Swift expressions for one case's templates, written as moya-cli renders them (see
/// `TargetBuilder` and `RenderContext`), with the values and `Configuration` members they use noted.
struct CaseExpressions {
    var typeName: String
    var module: SwiftGenerationOptions.Module
    var values: [GeneratedValue]
    var names: GeneratedNames
    /// The values (by file name) an expression used: the case's pattern binds only those.
    var used: Set<String> = []
    /// Values unwrapped by an enclosing `map`: within it they are not optional.
    var unwrapped: Set<String> = []
    /// The `${VAR}` references met, with their fallbacks.
    var references: [Template.EnvironmentReference] = []
    /// Whether `Configuration.filesFolder` was used.
    var usesFilesFolder = false
    /// Whether `Configuration.downloadsFolder` was used.
    var usesDownloadsFolder = false

    /// What parameter dictionaries hold: `any Sendable` (MoyaKit), which Moya's `[String: Any]` takes too.
    var parameterType: String { "any Sendable" }

    func value(named name: String) -> GeneratedValue? {
        values.first { $0.spec.name == name }
    }

    /// Whether `value` is optional here (declared optional and not unwrapped by an enclosing `map`).
    func isOptional(_ value: GeneratedValue) -> Bool {
        value.spec.isOptional && !unwrapped.contains(value.spec.name)
    }

    /// The value's name as written in an expression.
    mutating func reference(_ value: GeneratedValue) -> String {
        used.insert(value.spec.name)
        return SwiftIdentifier.written(value.identifier)
    }

    /// `map` over an optional value with `body` seeing it unwrapped: `state.map { state in ... }`.
    mutating func mapping(_ value: GeneratedValue, _ body: (inout CaseExpressions) -> String) -> String {
        let mapped = mapping(value) { SwiftExpression.atom(body(&$0)) }
        // `name.map { name in name }` is `name`.
        if case .closure(_, let name, .atom(let inner)) = mapped, inner == name { return name }
        return mapped.flat
    }

    /// `map` over an optional value, as an expression that breaks as swift-format breaks a closure.
    mutating func mapping(_ value: GeneratedValue, _ body: (inout CaseExpressions) -> SwiftExpression)
        -> SwiftExpression
    {
        let name = reference(value)
        let wasUnwrapped = unwrapped.contains(value.spec.name)
        unwrapped.insert(value.spec.name)
        let inner = body(&self)
        if !wasUnwrapped { unwrapped.remove(value.spec.name) }
        return .closure(name + ".map", parameter: name, inner)
    }

    // MARK: Text

    /// A `String` expression of the value's text, as `ArgumentValue.text` writes it (a list's
    /// elements joined with ", "; an optional value not given: empty).
    mutating func text(of value: GeneratedValue) -> String {
        if isOptional(value) {
            return "(" + mapping(value) { $0.text(of: value) } + " ?? \"\")"
        }
        let name = reference(value)
        return Self.text(of: name, kind: value.kind)
    }

    private static func text(of name: String, kind: GeneratedValue.Kind) -> String {
        switch kind {
        case .string: name
        case .int, .double, .bool: "String(" + name + ")"
        case .file: name + ".path"
        case .enumeration(_, .string): name + ".rawValue"
        case .enumeration: "String(" + name + ".rawValue)"
        case .list(.string): name + ".joined(separator: \", \")"
        case .list(let element): name + ".map { " + text(of: "$0", kind: element) + " }.joined(separator: \", \")"
        }
    }

    /// A `String` expression for `template`: literal text, values' text (percent-escaped as one
    /// path segment with `pathSegment`) and `Configuration` members.
    mutating func string(_ template: Template, pathSegment: Bool = false) -> SwiftExpression {
        if let literal = template.literalText {
            if literal.contains(DynamicValue.markerPrefix) { return .atom("\"" + Self.escaped(literal) + "\"") }
            return .atom(SwiftLiteral.quoted(literal))
        }
        if !pathSegment, let name = template.soloPlaceholder, let value = value(named: name), value.kind == .string,
            !isOptional(value)
        {
            return .atom(reference(value))
        }
        if template.segments.count == 1, case .environment(let reference) = template.segments[0] {
            return .atom(configurationValue(reference))
        }
        var literal = "\""
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                literal += Self.escaped(text)
            case .placeholder(let name, _):
                guard let value = value(named: name) else { continue }
                let text = self.text(of: value)
                literal += "\\(" + (pathSegment ? escapedPathSegment(text) : text) + ")"
            case .environment(let reference):
                literal += "\\(" + configurationValue(reference) + ")"
            }
        }
        return .atom(literal + "\"")
    }

    /// `text` escaped for a Swift string literal, each `{$uuid}`, `{$timestamp}` or `{$isoDate}` (its
    /// marker, `DynamicValue`) an interpolation made when the property is read: once per request,
    /// as Moya reads a target's members for each request.
    static func escaped(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: DynamicValue.markerPrefix) {
            result += SwiftLiteral.escaped(String(rest[..<start.lowerBound]))
            let after = rest[start.upperBound...]
            guard
                let value = DynamicValue.allCases.first(where: {
                    after.hasPrefix($0.rawValue + DynamicValue.markerSuffix)
                })
            else {
                result += SwiftLiteral.escaped(DynamicValue.markerPrefix)
                rest = after
                continue
            }
            result += "\\(" + swiftExpression(for: value) + ")"
            rest = after.dropFirst(value.rawValue.count + DynamicValue.markerSuffix.count)
        }
        return result + SwiftLiteral.escaped(String(rest))
    }

    /// The Swift expression that makes `value`.
    static func swiftExpression(for value: DynamicValue) -> String {
        switch value {
        case .uuid: "UUID().uuidString.lowercased()"
        case .timestamp: "Int(Date().timeIntervalSince1970)"
        case .isoDate: "ISO8601DateFormatter().string(from: Date())"
        }
    }

    /// `text` as one path segment: percent-escaped as `PercentEncoding.escapePathSegment` does it for
    /// MoyaKit; for Moya, raw but for what would leave the segment (see `GeneratedPrivateTypes.path`).
    private func escapedPathSegment(_ text: String) -> String {
        (module == .moyaKit ? "PercentEncoding.escapePathSegment(" : "GeneratedPath.escapeSegment(") + text + ")"
    }

    /// `TypeName.configuration.member ?? "fallback"`, the value a `${VAR}` reference reads.
    mutating func configurationValue(_ reference: Template.EnvironmentReference) -> String {
        references.append(reference)
        let member = names.configurationMember(for: reference.name) ?? SwiftIdentifier.lowerCamel(reference.name)
        return "(" + typeName + ".configuration." + SwiftIdentifier.written(member) + " ?? "
            + SwiftLiteral.quoted(reference.fallback ?? "") + ")"
    }

    /// A `URL` expression for a file the task or a sample reads: a `file` value itself, anything
    /// else in `Configuration.filesFolder` unless absolute (as relative to the target file's folder).
    mutating func fileURL(_ template: Template) -> SwiftExpression {
        if let name = template.soloPlaceholder, let value = value(named: name), value.kind == .file {
            return .atom(reference(value))
        }
        if let literal = template.literalText, literal.hasPrefix("/") {
            return .call("URL", [.prefixed("fileURLWithPath: ", .atom(SwiftLiteral.quoted(literal)))])
        }
        usesFilesFolder = true
        return .call(typeName + ".configuration.filesFolder.appendingPathComponent", [string(template)])
    }

    // MARK: JSON bodies

    /// A `GeneratedJSON` expression (`GeneratedJSON?` for a lone optional value) for `template`,
    /// members in file order.
    mutating func json(_ template: JSONTemplate) -> SwiftExpression {
        switch template {
        case .null: return .atom(".null")
        case .bool(let flag): return .atom(".bool(\(flag))")
        case .int(let number): return .atom(".int(\(number))")
        case .double(let number): return .call(".raw", [.atom(SwiftLiteral.quoted(number.text))])
        case .string(let text): return .call(".string", [string(text)])
        case .literal(let literal):
            let text = String(decoding: literal.bytes, as: UTF8.self)
            if text.contains(DynamicValue.markerPrefix) {
                return .call(".raw", [.atom("\"" + Self.escaped(text) + "\"")])
            }
            return .call(".raw", [.atom(SwiftLiteral.quoted(text))])
        case .placeholder(let name, _):
            guard let value = value(named: name) else { return .atom(".null") }
            if isOptional(value) {
                return .atom(mapping(value) { $0.jsonValue(of: value) })
            }
            return .atom(jsonValue(of: value))
        case .array(let items):
            return .call(".array", [.collection(open: "[", items.map { json($0) }, close: "]")])
        case .object(let members):
            let pairs = members.map { member -> SwiftExpression in
                .collection(open: "(", [.atom(SwiftLiteral.quoted(member.key)), json(member.value)], close: ")")
            }
            return .call(".object", [.collection(open: "[", pairs, close: "]")])
        }
    }

    /// `GeneratedJSON.string(name)` and the like: a value as a lone placeholder inserts it.
    private mutating func jsonValue(of value: GeneratedValue) -> String {
        "GeneratedJSON" + Self.json(of: reference(value), kind: value.kind)
    }

    private static func json(of name: String, kind: GeneratedValue.Kind) -> String {
        switch kind {
        case .string: ".string(" + name + ")"
        case .int: ".int(" + name + ")"
        case .double: ".double(" + name + ")"
        case .bool: ".bool(" + name + ")"
        case .file: ".string(" + name + ".path)"
        case .enumeration(_, .string): ".string(" + name + ".rawValue)"
        case .enumeration(_, .int): ".int(" + name + ".rawValue)"
        case .enumeration(_, .double): ".double(" + name + ".rawValue)"
        case .list(let element): ".array(" + name + ".map { GeneratedJSON" + json(of: "$0", kind: element) + " })"
        }
    }

    // MARK: Parameters

    /// A `[String: any Sendable]` expression for parameters; lone optional values not given are
    /// left out.
    mutating func parameters(_ members: [JSONTemplate.Member]) -> SwiftExpression {
        if members.isEmpty { return .atom("[:]") }
        let hasOptional = members.contains { isLoneOptional($0.value) }
        let pairs = members.map { SwiftExpression.prefixed(SwiftLiteral.quoted($0.key) + ": ", parameter($0.value)) }
        if hasOptional {
            return .prefixed(
                "(",
                .collection(
                    open: "[", pairs, close: "] as [String: (\(parameterType))?]).compactMapValues { $0 }"))
        }
        return .collection(open: "[", pairs, close: "]")
    }

    private func isLoneOptional(_ template: JSONTemplate) -> Bool {
        guard case .placeholder(let name, _) = template, let value = value(named: name) else { return false }
        return isOptional(value)
    }

    /// A parameter value as MoyaKit's encodings read it (`JSONValue(parameters:)`).
    private mutating func parameter(_ template: JSONTemplate) -> SwiftExpression {
        switch template {
        case .null: return .atom("String?.none")
        case .bool(let flag): return .atom("\(flag)")
        case .int(let number): return .atom("\(number)")
        case .double(let number): return .atom(number.text)
        case .string(let text): return string(text)
        case .literal(let literal): return parameter(literal: literal.value)
        case .placeholder(let name, _):
            guard let value = value(named: name) else { return .atom("String?.none") }
            return .atom(Self.parameter(of: reference(value), kind: value.kind, optional: isOptional(value)))
        case .array(let items):
            if items.contains(where: isLoneOptional) {
                return .prefixed(
                    "(",
                    .collection(
                        open: "[", items.map { parameter($0) }, close: "] as [(\(parameterType))?]).compactMap { $0 }"))
            }
            return .collection(open: "[", items.map { parameter($0) }, close: "] as [\(parameterType)]")
        case .object(let members):
            if members.isEmpty { return .atom("[:] as [String: \(parameterType)]") }
            let nested = parameters(members)
            if case .collection(let open, let pairs, let close) = nested {
                return .collection(open: open, pairs, close: close + " as [String: \(parameterType)]")
            }
            return nested
        }
    }

    private func parameter(literal value: JSONValue) -> SwiftExpression {
        switch value {
        case .null: return .atom("String?.none")
        case .bool(let flag): return .atom("\(flag)")
        case .int(let number): return .atom("\(number)")
        case .number(let number): return .atom(number.text)
        case .string(let text): return .atom(SwiftLiteral.quoted(text))
        case .array(let items):
            return .collection(open: "[", items.map { parameter(literal: $0) }, close: "] as [\(parameterType)]")
        case .object(let members):
            if members.isEmpty { return .atom("[:] as [String: \(parameterType)]") }
            let pairs = members.map {
                SwiftExpression.prefixed(SwiftLiteral.quoted($0.0) + ": ", parameter(literal: $0.1))
            }
            return .collection(open: "[", pairs, close: "] as [String: \(parameterType)]")
        }
    }

    private static func parameter(of name: String, kind: GeneratedValue.Kind, optional: Bool) -> String {
        let access = optional ? "?" : ""
        switch kind {
        case .string, .int, .double, .bool, .list(.string), .list(.int), .list(.double), .list(.bool): return name
        case .file: return name + access + ".path"
        case .enumeration: return name + access + ".rawValue"
        case .list(.file): return name + access + ".map(\\.path)"
        case .list(.enumeration): return name + access + ".map(\\.rawValue)"
        case .list: return name
        }
    }
}
