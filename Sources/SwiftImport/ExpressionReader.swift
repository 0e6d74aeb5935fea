import OrderedJSON
import SwiftParser
import SwiftSyntax
import TargetModel

/// Where a value's placeholder stands: a path, a file's place, or anywhere else.
enum PlaceholderUse {
    case path
    case file
    case other
}

/// What a case's data expression is: text (a template), a JSON value, nothing, a file beside the
/// target file, or a stub the app loads from its bundle.
enum DataExpression {
    case text(String)
    case json(YAMLText)
    case empty
    case file(String)
    case bundle(resource: String, type: String?)
}

/// Reads one case's expressions: literals to templates and JSON, bound names to placeholders;
/// records what it cannot read as a note, and where each value is used.
struct ExpressionReader {
    /// A bound name (`let sku`) or a struct's property, to the value's name.
    var bindings: [String: String]
    var caseName: String
    var source: ParsedSource
    var notes: [SwiftImportNote] = []
    var uses: [String: Set<PlaceholderUseKey>] = [:]
    /// Placeholders the reader had to add for interpolations the app computes (`\(Config.id)`).
    var extraValues: [(name: String, place: String)] = []
    /// Whether an interpolation the app computes becomes a new value (in the request), or is
    /// written as it is, with a note (in a sample, which must not add values).
    var addsValues = true
    /// Values that may not stand inside a longer text (optional ones), in a sample.
    var forbiddenInline: Set<String> = []
    /// Values used inside a longer text.
    var inlineUses: Set<String> = []
    /// Files of the target file's folder the sources name (`filesFolder.appendingPathComponent("a.txt")`).
    var folderFiles: Set<String> = []
    /// The branch's local constants and the members added to its dictionaries.
    var locals = MemberBody.Locals()
    /// `Configuration` members `generate swift` wrote for `${VAR}` references: member → `secret:VAR`.
    var configuration: [String: String] = [:]

    /// `X.configuration.member ?? "fallback"`, as `generate swift` writes a `${VAR:-fallback}`
    /// reference, back to the reference; `nil` for anything else.
    static func configurationReference(_ expression: ExprSyntax, in configuration: [String: String]) -> String? {
        var target = unwrapped(expression)
        var fallback: String?
        if let sequence = target.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
            let elements = Array(sequence.elements)
            guard elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??",
                let text = unwrapped(elements[2]).as(StringLiteralExprSyntax.self)?.representedLiteralValue,
                !text.contains("}"), !text.contains("{")
            else { return nil }
            target = unwrapped(elements[0])
            fallback = text
        }
        guard let member = target.as(MemberAccessExprSyntax.self), let base = member.base,
            base.trimmedDescription.hasSuffix("configuration"),
            let reference = configuration[identifierText(member.declName.baseName)]
        else { return nil }
        return "${" + reference + (fallback.map { ":-" + $0 } ?? "") + "}"
    }

    /// The expression a local constant stands for (`parameters` → its dictionary literal).
    func local(_ expression: ExprSyntax) -> ExprSyntax? {
        guard let reference = Self.unwrapped(expression).as(DeclReferenceExprSyntax.self) else { return nil }
        let name = identifierText(reference.baseName)
        guard bindings[name] == nil else { return nil }
        return locals.values[name]
    }
    let maximumDepth = 64

    enum PlaceholderUseKey: Hashable {
        case path, file, other
    }

    init(bindings: [String: String], caseName: String, source: ParsedSource) {
        self.bindings = bindings
        self.caseName = caseName
        self.source = source
    }

    mutating func note(_ node: some SyntaxProtocol, _ message: String) {
        notes.append(SwiftImportNote(place: source.place(node), caseName: caseName, message: message))
    }

    private mutating func use(_ name: String, _ kind: PlaceholderUse) {
        let key: PlaceholderUseKey =
            switch kind {
            case .path: .path
            case .file: .file
            case .other: .other
            }
        uses[name, default: []].insert(key)
    }

    // MARK: Unwrapping

    /// The expression with what does not change its meaning here taken off: parentheses, `!`,
    /// `?`, `as T`, `.compactMapValues { $0 }`.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        var current = expression
        for _ in 0..<32 {
            if let tuple = current.as(TupleExprSyntax.self), tuple.elements.count == 1,
                let only = tuple.elements.first, only.label == nil
            {
                current = only.expression
            } else if let force = current.as(ForceUnwrapExprSyntax.self) {
                current = force.expression
            } else if let optional = current.as(OptionalChainingExprSyntax.self) {
                current = optional.expression
            } else if let sequence = current.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                Array(sequence.elements)[1].is(UnresolvedAsExprSyntax.self)
            {
                current = Array(sequence.elements)[0]
            } else if let cast = current.as(AsExprSyntax.self) {
                current = cast.expression
            } else if let call = current.as(FunctionCallExprSyntax.self),
                let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                ["compactMapValues", "compactMap"].contains(member.declName.baseName.text), let base = member.base
            {
                current = base
            } else {
                return current
            }
        }
        return current
    }

    /// The callee's last name: `URL(string:)` → `URL`, `GeneratedJSON.object(…)` → `object`.
    static func calleeName(_ call: FunctionCallExprSyntax) -> String {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            return identifierText(reference.baseName)
        }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            return identifierText(member.declName.baseName)
        }
        return call.calledExpression.trimmedDescription
    }

    static func argument(_ call: FunctionCallExprSyntax, _ label: String?) -> ExprSyntax? {
        call.arguments.first { ($0.label.map(identifierText) ?? nil) == label }?.expression
    }

    // MARK: Placeholders

    /// Members and calls that stand for the value they are on (`id.description`, `name.urlEscaped`,
    /// `String(id)`, `GeneratedPath.escapeSegment(x)`).
    private static let transparentMembers: Set<String> = [
        "urlEscaped", "rawValue", "description", "stringValue", "uuidString", "absoluteString", "urlEncoded",
        "addingPercentEncoding", "lowercased", "uppercased", "escapeSegment", "utf8"
    ]
    private static let transparentCalls: Set<String> = ["String", "Int", "Double", "escapeSegment", "Bool"]

    /// The value an expression stands for, when it is one of the case's bound values.
    func valueName(_ expression: ExprSyntax, depth: Int = 0) -> String? {
        guard depth < maximumDepth else { return nil }
        let expression = Self.unwrapped(expression)
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return bindings[identifierText(reference.baseName)]
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            if base.trimmedDescription == "self" { return bindings[identifierText(member.declName.baseName)] }
            if Self.transparentMembers.contains(member.declName.baseName.text) {
                return valueName(base, depth: depth + 1)
            }
            return nil
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let name = Self.calleeName(call)
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
                Self.transparentMembers.contains(name), base.trimmedDescription != "GeneratedPath"
            {
                return valueName(base, depth: depth + 1)
            }
            if Self.transparentCalls.contains(name), call.arguments.count == 1, let only = call.arguments.first {
                return valueName(only.expression, depth: depth + 1)
            }
            return nil
        }
        if let literal = expression.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
            case .expressionSegment(let segment)? = literal.segments.first, segment.expressions.count == 1,
            let only = segment.expressions.first
        {
            return valueName(only.expression, depth: depth + 1)
        }
        return nil
    }

    /// The placeholder for an interpolation or an expression: `{name}`; an expression the app
    /// computes becomes a new string value (named from it), with a note.
    mutating func placeholder(_ expression: ExprSyntax, use kind: PlaceholderUse, inline: Bool = false) -> String {
        if let reference = Self.configurationReference(expression, in: configuration) { return reference }
        if let name = valueName(expression) {
            if inline && forbiddenInline.contains(name) {
                note(expression, "the optional value '\(name)' cannot stand inside a longer text here: written as text")
                return NewCase.literal("\\(" + expression.trimmedDescription + ")")
            }
            if inline { inlineUses.insert(name) }
            use(name, kind)
            return "{\(name)}"
        }
        guard addsValues else {
            note(expression, "\\(\(Self.short(expression))) is computed by the app: written as text")
            return NewCase.literal("\\(" + expression.trimmedDescription + ")")
        }
        var base = expression.trimmedDescription.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }.map(String.init).joined()
        if let last = Self.unwrapped(expression).as(MemberAccessExprSyntax.self) {
            base = identifierText(last.declName.baseName)
        } else if let reference = Self.unwrapped(expression).as(DeclReferenceExprSyntax.self) {
            base = identifierText(reference.baseName)
        }
        if base.isEmpty || base.first?.isNumber == true { base = "part" + base }
        base = String(base.prefix(40))
        var name = base
        var number = 2
        while bindings.values.contains(name) || extraValues.contains(where: { $0.name == name }) {
            if let existing = extraValues.first(where: { $0.name == name && $0.place == source.place(expression) }) {
                return "{\(existing.name)}"
            }
            name = base + String(number)
            number += 1
        }
        extraValues.append((name, source.place(expression)))
        use(name, kind)
        note(
            expression,
            "\\(\(expression.trimmedDescription)) is computed by the app: it is the string value '\(name)' here, given on the command line"
        )
        return "{\(name)}"
    }

    // MARK: Strings

    /// A string expression as a template (`"/users/\(id)"` → `/users/{id}`); `nil` when it is not one.
    mutating func template(_ expression: ExprSyntax, use kind: PlaceholderUse) -> String? {
        let expression = Self.unwrapped(expression)
        if let value = local(expression) {
            let saved = locals
            locals = MemberBody.Locals()
            defer { locals = saved }
            return template(value, use: kind)
        }
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            if let plain = literal.representedLiteralValue { return NewCase.literal(plain) }
            let pounds = literal.openingPounds?.text.count ?? 0
            var text = ""
            for segment in literal.segments {
                switch segment {
                case .stringSegment(let part):
                    text += NewCase.literal(Self.unescaped(part.content.text, pounds: pounds))
                case .expressionSegment(let part):
                    guard let only = part.expressions.first else { continue }
                    text += placeholder(only.expression, use: kind, inline: literal.segments.count > 1)
                }
            }
            return text
        }
        if valueName(expression) != nil { return placeholder(expression, use: kind) }
        if let reference = Self.configurationReference(expression, in: configuration) { return reference }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            return integer.literal.text.replacingUnderscores()
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return float.literal.text.replacingUnderscores() }
        if let bool = expression.as(BooleanLiteralExprSyntax.self) { return bool.literal.text }
        return nil
    }

    /// The text of a string segment, its escapes read (`\n`, `\"`, `\u{1F600}`).
    static func unescaped(_ text: String, pounds: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        func isEscape(at position: Int) -> Bool {
            guard scalars[position] == "\\", position + pounds < scalars.count else { return false }
            return (0..<pounds).allSatisfy { scalars[position + 1 + $0] == "#" }
        }
        while index < scalars.count {
            guard isEscape(at: index), index + pounds + 1 < scalars.count else {
                result.append(scalars[index])
                index += 1
                continue
            }
            index += pounds + 1
            let next = scalars[index]
            index += 1
            switch next {
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "0": result.append("\0")
            case "u":
                if index < scalars.count, scalars[index] == "{",
                    let close = scalars[index...].firstIndex(of: "}"),
                    let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)..<close])), radix: 16),
                    let scalar = Unicode.Scalar(value)
                {
                    result.append(scalar)
                    index = close + 1
                } else {
                    result.append("u")
                }
            case "\n":
                // A line continuation in a multi-line string.
                while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            default: result.append(next)
            }
        }
        return String(result)
    }

    // MARK: JSON

    /// A Swift value as a target file's JSON: literals, dictionaries, arrays, bound values as
    /// typed placeholders, `GeneratedJSON` trees; `nil` (with a note) for what the app computes.
    mutating func json(_ expression: ExprSyntax, depth: Int = 0) -> YAMLText? {
        guard depth < maximumDepth else {
            note(expression, "nested more than \(maximumDepth) levels deep: left out")
            return nil
        }
        let expression = Self.unwrapped(expression)
        if let value = local(expression) {
            let name = expression.as(DeclReferenceExprSyntax.self).map { identifierText($0.baseName) } ?? ""
            var locals = self.locals
            locals.values[name] = nil
            let saved = self.locals
            self.locals = locals
            defer { self.locals = saved }
            guard case .map(var members)? = json(value, depth: depth + 1) else { return json(value, depth: depth + 1) }
            for (key, added) in saved.additions[name] ?? [] {
                if let read = json(added, depth: depth + 1) { members.append(.init(key, read)) }
            }
            return .map(members)
        }
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            return template(ExprSyntax(literal), use: .other).map { .string($0) }
        }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            return .number(integer.literal.text.replacingUnderscores())
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) {
            return .number(float.literal.text.replacingUnderscores())
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            case .number(let number)? = json(prefix.expression, depth: depth + 1)
        {
            return .number("-" + number)
        }
        if let bool = expression.as(BooleanLiteralExprSyntax.self) { return .bool(bool.literal.text == "true") }
        if expression.is(NilLiteralExprSyntax.self) { return .null }
        if let dictionary = expression.as(DictionaryExprSyntax.self) {
            guard case .elements(let elements) = dictionary.content else { return .map([]) }
            var entries: [YAMLText.Entry] = []
            for element in elements {
                guard let key = Self.unwrapped(element.key).as(StringLiteralExprSyntax.self)?.representedLiteralValue
                else {
                    note(
                        element.key,
                        "a key the app computes (\(element.key.trimmedDescription)): the member is left out")
                    continue
                }
                if let value = json(element.value, depth: depth + 1) { entries.append(.init(key, value)) }
            }
            return .map(entries)
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            return .list(array.elements.compactMap { json($0.expression, depth: depth + 1) })
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil,
            member.declName.baseName.text == "null"
        {
            return .null
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "data",
            let base = member.base
        {
            return json(base, depth: depth + 1)
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let generated = generatedJSON(call, depth: depth) {
            return generated
        }
        if valueName(expression) != nil { return .string(placeholder(expression, use: .other)) }
        note(expression, "\(Self.short(expression)) is computed by the app: left out")
        return nil
    }

    /// `GeneratedJSON.object([("k", v)])`, `.array`, `.string(x)`, `.int(1)`, `.raw("…")`, as
    /// `generate swift` writes JSON.
    private mutating func generatedJSON(_ call: FunctionCallExprSyntax, depth: Int) -> YAMLText? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base == nil || member.base?.trimmedDescription == "GeneratedJSON",
            let first = call.arguments.first?.expression
        else { return nil }
        switch member.declName.baseName.text {
        case "object":
            guard let array = Self.unwrapped(first).as(ArrayExprSyntax.self) else { return nil }
            var entries: [YAMLText.Entry] = []
            for element in array.elements {
                guard let tuple = element.expression.as(TupleExprSyntax.self), tuple.elements.count == 2,
                    let key = Array(tuple.elements)[0].expression.as(StringLiteralExprSyntax.self)?
                        .representedLiteralValue
                else { continue }
                if let value = json(Array(tuple.elements)[1].expression, depth: depth + 1) {
                    entries.append(.init(key, value))
                }
            }
            return .map(entries)
        case "array":
            return json(first, depth: depth + 1)
        case "string", "int", "double", "bool":
            return json(first, depth: depth + 1)
        case "raw":
            guard let text = Self.unwrapped(first).as(StringLiteralExprSyntax.self)?.representedLiteralValue,
                let value = try? JSONValue(parsing: text)
            else { return nil }
            return NewCase.yaml(value)
        default:
            return nil
        }
    }

    static func short(_ expression: some SyntaxProtocol) -> String {
        let text = expression.trimmedDescription.split(separator: "\n").first.map(String.init) ?? ""
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    // MARK: Data

    /// A `Data` expression: `"…".data(using: .utf8)!`, `Data("…".utf8)`, `"…".utf8Encoded`,
    /// `Data()`, a `GeneratedJSON` tree, a file of the target file's folder, a bundle resource.
    mutating func data(_ expression: ExprSyntax) -> DataExpression? {
        let expression = Self.unwrapped(expression)
        if let value = local(expression) {
            let saved = locals
            locals = MemberBody.Locals()
            defer { locals = saved }
            return data(value)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let name = Self.calleeName(call)
            if name == "data" || name == "dataUsingEncoding",
                let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                let base = member.base,
                Self.unwrapped(base).is(StringLiteralExprSyntax.self)
                    || valueName(base) != nil
            {
                return template(base, use: .other).map { .text($0) }
            }
            if name == "Data" {
                if call.arguments.isEmpty { return .empty }
                if let only = call.arguments.first, only.label == nil {
                    let inner = Self.unwrapped(only.expression)
                    if let member = inner.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "utf8",
                        let base = member.base
                    {
                        return template(base, use: .other).map { .text($0) }
                    }
                }
            }
            if name == "contents", let only = call.arguments.first?.expression, let path = filePath(only) {
                return .file(path)
            }
            if name == "object" || name == "array" || name == "raw", let value = generatedJSON(call, depth: 0) {
                return .json(value)
            }
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            switch member.declName.baseName.text {
            case "utf8Encoded", "utf8Data", "data":
                if let call = Self.unwrapped(base).as(FunctionCallExprSyntax.self),
                    let value = generatedJSON(call, depth: 0)
                {
                    return .json(value)
                }
                return template(base, use: .other).map { .text($0) }
            default: break
            }
        }
        if let resource = Self.bundleResource(in: Syntax(expression)) {
            return .bundle(resource: resource.0, type: resource.1)
        }
        // `let path = Bundle.main.path(forResource: "Me", ofType: "json")!` before the return.
        for value in locals.values.values {
            if let resource = Self.bundleResource(in: Syntax(value)) {
                return .bundle(resource: resource.0, type: resource.1)
            }
        }
        return nil
    }

    /// The resource a stub loads: `Bundle.main.path(forResource: "Me", ofType: "json")`,
    /// `url(forResource:withExtension:)`, or a helper called with its name (`stubbedResponse("Me")`).
    static func bundleResource(in node: Syntax) -> (String, String?)? {
        var found: (String, String?)?
        var helper: (String, String?)?
        func visit(_ node: Syntax, depth: Int) {
            guard depth < 64, found == nil else { return }
            if let call = node.as(FunctionCallExprSyntax.self) {
                if let resource = argument(call, "forResource").flatMap({
                    unwrapped($0).as(StringLiteralExprSyntax.self)?.representedLiteralValue
                }) {
                    let type = (argument(call, "ofType") ?? argument(call, "withExtension")).flatMap {
                        unwrapped($0).as(StringLiteralExprSyntax.self)?.representedLiteralValue
                    }
                    found = (resource, type)
                    return
                }
                if helper == nil, call.arguments.count == 1, let only = call.arguments.first, only.label == nil,
                    let name = unwrapped(only.expression).as(StringLiteralExprSyntax.self)?.representedLiteralValue,
                    !name.isEmpty, !name.contains("/"), name.count < 200
                {
                    helper = (name, nil)
                }
            }
            for child in node.children(viewMode: .sourceAccurate) { visit(child, depth: depth + 1) }
        }
        visit(node, depth: 0)
        return found ?? helper
    }

    /// A file's path: a bound `URL` value (`{document}`), or the target file's folder's file as
    /// `generate swift` writes it (`X.configuration.filesFolder.appendingPathComponent("samples/a.txt")`).
    mutating func filePath(_ expression: ExprSyntax) -> String? {
        let expression = Self.unwrapped(expression)
        if valueName(expression) != nil { return placeholder(expression, use: .file) }
        if let call = expression.as(FunctionCallExprSyntax.self), Self.calleeName(call) == "appendingPathComponent",
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base?.trimmedDescription.hasSuffix("filesFolder") == true,
            let only = call.arguments.first?.expression
        {
            let path = template(only, use: .file)
            if let path, !path.contains("{") { folderFiles.insert(path) }
            return path
        }
        return nil
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { filter { $0 != "_" } }
}
