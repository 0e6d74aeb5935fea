import OrderedJSON
import SwiftSyntax
import TargetModel
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

/// One `TargetType` type made a target file: its cases, values, members per case, auth and samples.
struct APIBuilder {
    let type: SourceDeclarations.TypeDeclaration
    let declarations: SourceDeclarations
    let protocols: Set<String>
    let apiName: String
    let samplesFolder: String?
    var notes: [SwiftImportNote] = []
    var sampleFiles: [SwiftImportedAPI.SampleFile] = []
    var variables: [String] = []
    /// Files beside the target file the sources name.
    var folderFiles: [String] = []

    /// A case's associated value as the target file declares it.
    struct Value {
        var name: String
        var kind: Kind
        var optional: Bool
        var defaultValue: YAMLText?
        var place: String

        indirect enum Kind {
            case string, int, double, bool, url
            case enumeration(RawValueEnum)
            case list(Kind)
        }
    }

    /// One enum case (or the one case of a struct), its values named.
    struct Case {
        var name: String
        var swiftName: String
        var values: [Value]
        var place: String
        var node: Syntax
        var source: ParsedSource
        /// Its doc comment (`/// One repository`), its description.
        var description: String?
    }

    /// `\u{202E}` as the scalar, as `generate swift` escapes controls and format characters in comments.
    static func unescapingScalars(_ text: String) -> String {
        guard text.contains("\\u{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "\\u{") {
            result += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            if let close = after.firstIndex(of: "}"), let value = UInt32(after[..<close], radix: 16),
                let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
                rest = after[after.index(after: close)...]
            } else {
                result += "\\u{"
                rest = after
            }
        }
        return result + rest
    }

    /// The `///` lines before a declaration, joined with spaces; `nil` without any.
    static func documentation(_ trivia: Trivia) -> String? {
        var lines: [String] = []
        for piece in trivia {
            if case .docLineComment(let text) = piece {
                lines.append(unescapingScalars(String(text.dropFirst(3)).trimmingSpaces()))
            }
        }
        let text = lines.filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty || text.count > 1000 ? nil : text
    }

    init(
        type: SourceDeclarations.TypeDeclaration, declarations: SourceDeclarations, protocols: Set<String>,
        apiName: String, samplesFolder: String?
    ) {
        self.type = type
        self.declarations = declarations
        self.protocols = protocols
        self.apiName = apiName
        self.samplesFolder = samplesFolder
    }

    private mutating func note(_ place: String, _ caseName: String?, _ message: String) {
        notes.append(SwiftImportNote(place: place, caseName: caseName, message: message))
    }

    /// The type's members: its own, its extensions', then the defaults its protocols' extensions give.
    private var members: [Located<MemberBlockItemSyntax>] {
        var result = type.members
        for declared in declarations.extensions where declared.extendedName == type.name {
            result += declared.members
        }
        let refining = Set(type.inherited).union(
            declarations.extensions.filter { $0.extendedName == type.name }.flatMap(\.inherited)
        ).intersection(protocols)
        for declared in declarations.extensions where refining.contains(declared.extendedName) {
            result += declared.members
        }
        return result
    }

    private var conformsToAccessTokenAuthorizable: Bool {
        let names = declarations.refining("AccessTokenAuthorizable")
        return type.inherited.contains(where: names.contains)
            || declarations.extensions.contains {
                $0.extendedName == type.name && $0.inherited.contains(where: names.contains)
            }
    }

    /// The references `generate swift`'s `Configuration` members stand for, from their doc
    /// comments (``/// `${secret:GITHUB_TOKEN}`: a secret.``): member → `secret:GITHUB_TOKEN`.
    private var configuration: [String: String] {
        var result: [String: String] = [:]
        for declared in declarations.types where declared.name == "Configuration" && declared.kind == "struct" {
            for member in declared.members {
                guard let variable = member.node.decl.as(VariableDeclSyntax.self),
                    let pattern = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
                else { continue }
                for piece in member.node.leadingTrivia {
                    guard case .docLineComment(let text) = piece, let start = text.firstRange(of: "`${"),
                        let end = text[start.upperBound...].firstRange(of: "}`")
                    else { continue }
                    let reference = String(text[start.upperBound..<end.lowerBound])
                    if reference.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }) {
                        result[identifierText(pattern.identifier)] = reference
                    }
                }
            }
        }
        return result
    }

    mutating func build(header: [String]) -> SwiftImportedAPI {
        let members = self.members
        func member(_ name: String) -> MemberBody? { MemberBody.find(name, in: members).first }
        let path = member("path")
        let method = member("method")
        let task = member("task")
        let headers = member("headers")
        let sampleData = member("sampleData")
        let baseURL = member("baseURL")
        let validationType = member("validationType")
        let validate = member("validate")
        let authorizationType = member("authorizationType")
        let parameters = member("parameters")
        let parameterEncoding = member("parameterEncoding")
        let requestMembers = [path, task, headers, parameters, sampleData].compactMap { $0 }

        var cases = readCases(naming: requestMembers)
        if cases.isEmpty {
            note(type.node.place, nil, "\(type.name) has no cases: the target file has none")
        }

        // Per case: every member read, then the values it uses.
        var entries: [YAMLText.Entry] = []
        var baseURLs: [String?] = []
        var environments: [(name: String, baseURL: String)] = []
        var caseHeaders: [[(String, String)]] = []
        var rendered: [(name: String, members: [YAMLText.Entry], comments: [String])] = []
        var validations: [YAMLText?] = []
        var authKinds: [AuthKind?] = []
        for index in cases.indices {
            var swiftCase = cases[index]
            var reader = ExpressionReader(bindings: [:], caseName: swiftCase.name, source: swiftCase.source)
            reader.configuration = configuration
            var caseMembers: [YAMLText.Entry] = []

            var lastNode: Syntax?
            var lastPlace: String?
            func bind(_ body: MemberBody?) -> (ExprSyntax?, String)? {
                guard let body, let branch = body.branch(for: swiftCase.swiftName) else { return nil }
                var bindings: [String: String] = [:]
                for (bound, position) in branch.bindings where position < swiftCase.values.count {
                    bindings[bound] = swiftCase.values[position].name
                }
                if type.kind != "enum" { for value in swiftCase.values { bindings[value.name] = value.name } }
                reader.bindings = bindings
                reader.source = body.source
                reader.locals = branch.locals
                lastNode = branch.node
                lastPlace = branch.place
                for statement in branch.locals.unread {
                    reader.note(
                        statement,
                        "\(body.name): the statement \(ExpressionReader.short(statement)) is the app's: not read")
                }
                return (branch.expression, branch.place)
            }

            // path
            var pathText = "/"
            if let (expression, place) = bind(path) {
                if let expression, let text = reader.template(expression, use: .path) {
                    pathText = text.hasPrefix("/") ? text : "/" + text
                } else {
                    reader.note(path!.node, "the path is computed by the app (at \(place)): '/' is written")
                }
            } else {
                note(type.node.place, swiftCase.name, "no path for this case: '/' is written")
            }

            // method
            var methodText = "GET"
            if let (expression, place) = bind(method) {
                if let expression, let text = Self.method(expression) {
                    methodText = text
                } else {
                    note(place, swiftCase.name, "the method is computed by the app: GET is written")
                }
            }

            // task (or the pre-Moya-10 parameters and parameterEncoding)
            var taskEntries: [YAMLText.Entry] = []
            if let (expression, place) = bind(task), expression?.trimmedDescription != ".request" {
                if let expression {
                    taskEntries = readTask(expression, reader: &reader, caseName: swiftCase.name, place: place)
                } else {
                    note(place, swiftCase.name, "the task is computed by the app: nothing is sent (requestPlain)")
                }
            } else if parameters != nil {
                let encoding = bind(parameterEncoding)
                taskEntries = readOldParameters(
                    parameters: bind(parameters), encoding: encoding, reader: &reader, caseName: swiftCase.name)
            }

            // A task needs its body: what is left without one (an encoding, a query) is dropped.
            let bodyKeys: Set<String> = ["data", "dataFile", "json", "parameters", "upload", "multipart", "download"]
            if !taskEntries.isEmpty, !taskEntries.contains(where: { bodyKeys.contains($0.key) }) {
                taskEntries = []
                note(
                    lastPlace ?? swiftCase.place, swiftCase.name,
                    "the task's body is the app's: nothing is sent (requestPlain)")
            }

            // headers
            var headerPairs: [(String, String)] = []
            var headerSecrets: [(name: String, value: String)] = []
            if let (expression, place) = bind(headers), let expression {
                let unwrapped = ExpressionReader.unwrapped(expression)
                if unwrapped.is(NilLiteralExprSyntax.self) {
                } else if let dictionary = unwrapped.as(DictionaryExprSyntax.self) {
                    if case .elements(let elements) = dictionary.content {
                        for element in elements {
                            guard
                                let name = ExpressionReader.unwrapped(element.key).as(StringLiteralExprSyntax.self)?
                                    .representedLiteralValue,
                                let value = reader.template(element.value, use: .other)
                            else {
                                reader.note(element, "a header the app computes: left out")
                                continue
                            }
                            let hidden = hidingSecret(value, named: name, header: true, at: element, reader: &reader)
                            if hidden != value {
                                headerSecrets.append((name, value))
                                if let space = value.firstIndex(of: " ") {
                                    headerSecrets.append((name, String(value[value.index(after: space)...])))
                                }
                            }
                            headerPairs.append((name, hidden))
                        }
                    }
                } else {
                    note(place, swiftCase.name, "the headers are computed by the app: left out")
                }
            }

            // Credentials in the path or the task: NewCase's one rule makes each a value of the case
            // (a task cannot read the environment, and a credential is never written).
            var members: [YAMLText.Entry] = [.init("path", .string(pathText))]
            if !taskEntries.isEmpty { members.append(.init("task", .map(taskEntries))) }
            var taken = Set(swiftCase.values.map(\.name) + reader.extraValues.map(\.name))
            let credentials = NewCase.credentialsAsValues(
                in: &members, isForm: false, secrets: headerSecrets, taken: &taken)
            if !credentials.isEmpty {
                if case .string(let path)? = members.first(where: { $0.key == "path" })?.value { pathText = path }
                if case .map(let task)? = members.first(where: { $0.key == "task" })?.value { taskEntries = task }
                for credential in credentials {
                    reader.extraValues.append((credential.value, lastPlace ?? swiftCase.place))
                    reader.uses[credential.value, default: []].insert(.other)
                    note(
                        lastPlace ?? swiftCase.place, swiftCase.name,
                        "\(credential.place) holds a credential in the sources: it is not copied; it is the value '\(credential.value)', given on the command line"
                    )
                }
            }

            // base URL
            var caseBase: String?
            if let (expression, place) = bind(baseURL) {
                if let expression, let read = readBaseURL(expression) {
                    caseBase = read.base
                    for environment in read.environments
                    where !environments.contains(where: { $0.name == environment.name }) {
                        environments.append(environment)
                    }
                } else {
                    note(place, swiftCase.name, "the base URL is computed by the app")
                }
            }

            // validation
            var validation: YAMLText?
            if let (expression, place) = bind(validationType) {
                if let expression, let read = Self.validation(expression) {
                    validation = read
                } else {
                    note(place, swiftCase.name, "the validation is computed by the app: successCodes is written")
                    validation = .string("successCodes")
                }
            } else if let (expression, _) = bind(validate), let expression {
                validation = .string(expression.trimmedDescription == "true" ? "successCodes" : "none")
            } else {
                validation = .string("none")
            }

            // auth
            var authKind: AuthKind?
            if conformsToAccessTokenAuthorizable {
                authKind = .bearer
                if let (expression, place) = bind(authorizationType) {
                    if let expression, let read = Self.authKind(expression) {
                        authKind = read.kind
                    } else {
                        note(place, swiftCase.name, "the authorization type is computed by the app: bearer is written")
                    }
                }
            }

            // The values the request uses; the others are left out (a target file's values must be used).
            var kept: [Value] = []
            for var value in swiftCase.values {
                let uses = reader.uses[value.name] ?? []
                if uses.isEmpty {
                    note(
                        value.place, swiftCase.name,
                        "the value '\(value.name)' is not used in the request (path, task or headers) the import reads: left out"
                    )
                    continue
                }
                if case .url = value.kind {
                    if uses != [.file] {
                        value.kind = .string
                        note(
                            value.place, swiftCase.name, "the URL value '\(value.name)' is used as text: it is a string"
                        )
                    }
                }
                if value.optional, uses.contains(.path) || reader.inlineUses.contains(value.name) {
                    value.optional = false
                    note(
                        value.place, swiftCase.name,
                        "the optional value '\(value.name)' is part of a longer text: it is required here")
                }
                kept.append(value)
            }
            for extra in reader.extraValues {
                kept.append(
                    Value(name: extra.name, kind: .string, optional: false, defaultValue: nil, place: extra.place))
            }
            swiftCase.values = kept
            cases[index] = swiftCase

            // sample, read with the kept values only
            var sample: YAMLText?
            if let (expression, place) = bind(sampleData) {
                var sampleReader = reader
                sampleReader.addsValues = false
                sampleReader.bindings = reader.bindings.filter { binding in kept.contains { $0.name == binding.value } }
                sampleReader.forbiddenInline = Set(kept.filter(\.optional).map(\.name))
                if let expression {
                    sample = readSample(expression, reader: &sampleReader, caseName: swiftCase.name, place: place)
                } else if let node = lastNode, let resource = ExpressionReader.bundleResource(in: node) {
                    sample = readBundleSample(
                        resource.0, type: resource.1, at: node, reader: &sampleReader, caseName: swiftCase.name)
                } else {
                    note(place, swiftCase.name, "the sample is computed by the app: left out")
                }
                reader.notes = sampleReader.notes
            }
            notes += reader.notes
            for file in reader.folderFiles where !folderFiles.contains(file) { folderFiles.append(file) }

            if let description = swiftCase.description {
                caseMembers.append(.init("description", .string(description)))
            }
            if !kept.isEmpty { caseMembers.append(.init("values", .list(kept.map { Self.valueYAML($0) }))) }
            caseMembers.append(.init("path", .string(pathText)))
            if methodText != "GET" { caseMembers.append(.init("method", .string(methodText))) }
            if !taskEntries.isEmpty { caseMembers.append(.init("task", .map(taskEntries))) }
            if let sample { caseMembers.append(.init("sample", sample)) }
            rendered.append((swiftCase.name, caseMembers, []))
            baseURLs.append(caseBase)
            caseHeaders.append(headerPairs)
            validations.append(validation)
            authKinds.append(authKind)
        }

        // The API: the base URL most cases have, headers every case sends, one validation, auth.
        var top: [YAMLText.Entry] = [.init("api", .string(apiName))]
        if let description = Self.documentation(type.node.node.leadingTrivia) {
            top.append(.init("description", .string(description)))
        }
        let base =
            Self.mostCommon(baseURLs.compactMap { $0 })
            ?? {
                let variable = NewCase.secretVariable(apiName: apiName, part: "BASE_URL")
                note(
                    baseURL.map(\.place) ?? type.node.place, nil,
                    "the base URL is computed by the app (or not declared): it is read from $\(variable)")
                variables.append(variable)
                return "${\(variable)}"
            }()
        top.append(.init("baseURL", .string(base)))
        if !environments.isEmpty {
            top.append(
                .init(
                    "environments",
                    .map(environments.map { .init($0.name, .map([.init("baseURL", .string($0.baseURL))])) })))
        }
        var common: [(String, String)] = []
        if cases.count > 1, let first = caseHeaders.first {
            common = first.filter { pair in
                !pair.1.contains("{") && caseHeaders.allSatisfy { $0.contains { $0 == pair } }
            }
        }
        if !common.isEmpty { top.append(.init("headers", .map(common.map { .init($0.0, .string($0.1)) }))) }
        let topValidation = Self.mostCommonYAML(validations.compactMap { $0 })
        if let topValidation { top.append(.init("validation", topValidation)) }

        let kinds = authKinds.compactMap { $0 }
        var distinct: [AuthKind] = []
        for kind in kinds where !distinct.contains(kind) { distinct.append(kind) }
        if distinct.count == 1 {
            top.append(.init("auth", authYAML(distinct[0])))
        } else if distinct.count > 1 {
            top.append(
                .init(
                    "auth",
                    .map([.init("schemes", .map(distinct.map { .init($0.schemeName, authYAML($0)) }))])))
        }

        var notesByCase: [String: [SwiftImportNote]] = [:]
        for note in notes { if let caseName = note.caseName { notesByCase[caseName, default: []].append(note) } }
        for index in rendered.indices {
            var caseMembers = rendered[index].members
            let pathAt = caseMembers.firstIndex { $0.key == "path" } ?? 0
            if let caseBase = baseURLs[index], caseBase != base {
                caseMembers.insert(.init("baseURL", .string(caseBase)), at: pathAt)
            }
            let own = caseHeaders[index].filter { pair in !common.contains { $0 == pair } }
            var insertAt =
                (caseMembers.firstIndex { $0.key == "method" } ?? caseMembers.firstIndex { $0.key == "path" } ?? 0) + 1
            if !own.isEmpty {
                caseMembers.insert(.init("headers", .map(own.map { .init($0.0, .string($0.1)) })), at: insertAt)
                insertAt += 1
            }
            if !distinct.isEmpty {
                if let kind = authKinds[index] {
                    if distinct.count > 1 { caseMembers.insert(.init("auth", .string(kind.schemeName)), at: insertAt) }
                } else {
                    caseMembers.insert(.init("auth", .string("none")), at: insertAt)
                }
            }
            if let validation = validations[index], let topValidation,
                Self.render(validation) != Self.render(topValidation)
            {
                let sampleAt = caseMembers.firstIndex { $0.key == "sample" } ?? caseMembers.count
                caseMembers.insert(.init("validation", validation), at: sampleAt)
            }
            let comments = (notesByCase[rendered[index].name] ?? []).map {
                Self.commentLine("\($0.place): \($0.message)")
            }
            entries.append(.init(rendered[index].name, .map(caseMembers), comments: comments))
        }
        top.append(.init("cases", .map(entries)))
        let apiNotes = notes.filter { $0.caseName == nil }.map { Self.commentLine("\($0.place): \($0.message)") }
        let text = YAMLText.render(top, header: header + (apiNotes.isEmpty ? [] : [""] + apiNotes))
        return SwiftImportedAPI(
            name: apiName, typeName: type.qualifiedName, text: text, caseCount: entries.count,
            sampleFiles: sampleFiles, variables: variables, folderFiles: folderFiles)
    }

    static func commentLine(_ text: String) -> String {
        DisplayText.escaped(String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }

    static func render(_ value: YAMLText) -> String { YAMLText.render([.init("v", value)], header: []) }

    static func mostCommon(_ items: [String]) -> String? {
        var counts: [String: Int] = [:]
        for item in items { counts[item, default: 0] += 1 }
        return items.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }.flatMap { best in
            items.first { counts[$0] == counts[best] }
        }
    }

    static func mostCommonYAML(_ items: [YAMLText]) -> YAMLText? {
        let texts = items.map(render)
        guard let best = mostCommon(texts), let at = texts.firstIndex(of: best) else { return nil }
        return items[at]
    }

    // MARK: Secrets

    /// A value written in the sources under a credential's name (an `Authorization` header, a
    /// `password` parameter) is never copied into the target file: it becomes a
    /// `${secret:MOYA_<API>_<NAME>}` reference, with a note. A placeholder or a reference stays.
    mutating func hidingSecret(
        _ value: String, named name: String, header: Bool, at node: some SyntaxProtocol, reader: inout ExpressionReader
    ) -> String {
        let sensitive =
            (header && CredentialNames.sensitiveHeaders.contains(name.lowercased()))
            || CredentialNames.looksSecret(name)
        guard sensitive, !value.isEmpty, Self.holdsLiteralText(value) else { return value }
        let variable = NewCase.secretVariable(apiName: apiName, part: name)
        if !variables.contains(variable) { variables.append(variable) }
        reader.note(node, "\(name) holds a credential in the sources: it is not copied, and is read from $\(variable)")
        return "${secret:\(variable)}"
    }

    /// Whether a template holds text besides its placeholders and references (`Bearer {token}` does).
    static func holdsLiteralText(_ template: String) -> Bool {
        var depth = 0
        var literal = false
        var previous: Character = " "
        for character in template {
            if character == "{" {
                depth += 1
            } else if character == "}" {
                depth = max(0, depth - 1)
            } else if depth == 0,
                !(character == "$" && previous != "$")
            {
                literal = true
            }
            previous = character
        }
        return literal
    }

    // MARK: Cases and values

    /// The cases in order, each value named by its label, else by the name the `path` or `task`
    /// switch binds it to, else `value1`, `value2`, ….
    private mutating func readCases(naming bodies: [MemberBody]) -> [Case] {
        var result: [Case] = []
        var taken: Set<String> = []
        if type.kind != "enum" {
            // A struct or class: one case, its stored properties its values.
            var values: [Value] = []
            for member in type.members {
                guard let variable = member.node.decl.as(VariableDeclSyntax.self),
                    !variable.modifiers.contains(where: { $0.name.text == "static" })
                else { continue }
                for binding in variable.bindings where binding.accessorBlock == nil {
                    guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
                        let annotation = binding.typeAnnotation
                    else { continue }
                    var value = readValue(
                        name: identifierText(pattern.identifier), type: annotation.type,
                        defaultExpression: binding.initializer?.value, place: member.source.place(binding),
                        caseName: nil)
                    value.name = Self.identifier(value.name)
                    values.append(value)
                }
            }
            let name = Self.identifier(type.name.prefix(1).lowercased() + type.name.dropFirst())
            result.append(
                Case(
                    name: name, swiftName: type.name, values: values, place: type.node.place,
                    node: Syntax(type.node.node), source: type.node.source))
            return result
        }
        for element in type.caseDecls {
            let swiftName = identifierText(element.node.name)
            let name = Self.identifier(swiftName)
            if name != swiftName {
                note(element.place, name, "the case \(swiftName) is named \(name) (letters, digits and _ only)")
            }
            if !taken.insert(name).inserted {
                note(element.place, name, "the case \(swiftName) is declared again: left out")
                continue
            }
            var values: [Value] = []
            var valueNames: Set<String> = []
            for (position, parameter) in (element.node.parameterClause?.parameters ?? []).enumerated() {
                var label = parameter.firstName.map(identifierText)
                if label == "_" { label = parameter.secondName.map(identifierText) }
                if label == nil {
                    for body in bodies {
                        if let branch = body.pattern(for: swiftName), let bound = branch.bindings[position] {
                            label = bound
                            break
                        }
                    }
                }
                var valueName = Self.identifier(label ?? "value\(position + 1)")
                var number = 2
                let stem = valueName
                while !valueNames.insert(valueName).inserted {
                    valueName = stem + "\(number)"
                    number += 1
                }
                values.append(
                    readValue(
                        name: valueName, type: parameter.type, defaultExpression: parameter.defaultValue?.value,
                        place: element.source.place(parameter), caseName: name))
            }
            result.append(
                Case(
                    name: name, swiftName: swiftName, values: values, place: element.place, node: Syntax(element.node),
                    source: element.source,
                    description: (element.node.parent?.parent?.as(EnumCaseDeclSyntax.self)).flatMap {
                        $0.elements.count == 1 ? Self.documentation($0.leadingTrivia) : nil
                    }))
        }
        return result
    }

    /// A name as a target file's identifier: letters, digits and `_`, not starting with a digit.
    static func identifier(_ text: some StringProtocol) -> String {
        var result = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar {
                    case "a"..."z", "A"..."Z", "0"..."9", "_": scalar
                    default: "_"
                    }
                }))
        if result.isEmpty || result.first?.isNumber == true { result = "_" + result }
        return result
    }

    private mutating func readValue(
        name: String, type: TypeSyntax, defaultExpression: ExprSyntax?, place: String, caseName: String?
    ) -> Value {
        var optional = false
        var current = type
        if let wrapped = current.as(OptionalTypeSyntax.self) {
            optional = true
            current = wrapped.wrappedType
        } else if let wrapped = current.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            optional = true
            current = wrapped.wrappedType
        }
        let kind = valueKind(current, place: place, caseName: caseName)
        var value = Value(name: name, kind: kind, optional: optional, defaultValue: nil, place: place)
        if let defaultExpression {
            let unwrapped = ExpressionReader.unwrapped(defaultExpression)
            if unwrapped.is(NilLiteralExprSyntax.self) {
                value.optional = true
            } else if let read = Self.defaultValue(unwrapped, kind: kind) {
                value.defaultValue = read
                value.optional = false
            } else {
                note(
                    place, caseName,
                    "the default \(ExpressionReader.short(defaultExpression)) is computed by the app: the value is required"
                )
            }
        }
        return value
    }

    private mutating func valueKind(_ type: TypeSyntax, place: String, caseName: String?) -> Value.Kind {
        if let array = type.as(ArrayTypeSyntax.self) {
            let element = valueKind(array.element, place: place, caseName: caseName)
            if case .list = element {
                note(place, caseName, "a list of lists is given as a list of strings")
                return .list(.string)
            }
            if case .url = element { return .list(.string) }
            return .list(element)
        }
        let name = simpleTypeName(type)
        switch name {
        case "String", "Substring", "Character", "UUID": return .string
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return .int
        case "Double", "Float", "CGFloat", "Decimal", "Float32", "Float64": return .double
        case "Bool": return .bool
        case "URL": return .url
        default:
            if let declared = declarations.rawValueEnums[name] { return .enumeration(declared) }
            note(place, caseName, "the type \(type.trimmedDescription) is the app's: the value is given as a string")
            return .string
        }
    }

    private static func defaultValue(_ expression: ExprSyntax, kind: Value.Kind) -> YAMLText? {
        switch kind {
        case .enumeration(let declared):
            guard let member = expression.as(MemberAccessExprSyntax.self),
                let found = declared.cases.first(where: { $0.name == identifierText(member.declName.baseName) })
            else { return nil }
            return declared.isInt ? .number(found.raw) : .string(found.raw)
        case .list:
            guard let array = expression.as(ArrayExprSyntax.self) else { return nil }
            let items = array.elements.map { defaultValue(ExpressionReader.unwrapped($0.expression), kind: .string) }
            guard items.allSatisfy({ $0 != nil }) else { return nil }
            return .list(items.compactMap { $0 })
        default:
            if let string = expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue {
                return .string(string)
            }
            if let integer = expression.as(IntegerLiteralExprSyntax.self) {
                return .number(integer.literal.text.filter { $0 != "_" })
            }
            if let float = expression.as(FloatLiteralExprSyntax.self) {
                return .number(float.literal.text.filter { $0 != "_" })
            }
            if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
                case .number(let number)? = defaultValue(prefix.expression, kind: kind)
            {
                return .number("-" + number)
            }
            if let bool = expression.as(BooleanLiteralExprSyntax.self) { return .bool(bool.literal.text == "true") }
            return nil
        }
    }

    static func valueYAML(_ value: Value) -> YAMLText {
        var members: [YAMLText.Entry] = []
        func kindEntries(_ kind: Value.Kind) -> [YAMLText.Entry] {
            switch kind {
            case .string: [.init("type", .string("string"))]
            case .int: [.init("type", .string("int"))]
            case .double: [.init("type", .string("double"))]
            case .bool: [.init("type", .string("bool"))]
            case .url: [.init("type", .string("file"))]
            case .enumeration(let declared):
                declared.isInt
                    ? [
                        .init("type", .string(declared.isDouble ? "double" : "int")),
                        .init("enum", .list(declared.cases.map { .number($0.raw) }))
                    ]
                    : [.init("enum", .list(declared.cases.map { .string($0.raw) }))]
            case .list(let element):
                switch element {
                case .int: [.init("type", .list([.string("int")]))]
                case .double: [.init("type", .list([.string("double")]))]
                case .bool: [.init("type", .list([.string("bool")]))]
                default: [.init("type", .list([.string("string")]))]
                }
            }
        }
        members = kindEntries(value.kind)
        if let defaultValue = value.defaultValue { members.append(.init("default", defaultValue)) }
        if value.optional, value.defaultValue == nil { members.append(.init("optional", .bool(true))) }
        if members.count == 1, members[0].key == "type" { return .map([.init(value.name, members[0].value)]) }
        return .map([.init(value.name, .map(members))])
    }

    // MARK: Members

    static func method(_ expression: ExprSyntax) -> String? {
        let expression = ExpressionReader.unwrapped(expression)
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = identifierText(member.declName.baseName).uppercased()
            return Self.isMethodName(name) ? name : nil
        }
        if let call = expression.as(FunctionCallExprSyntax.self),
            let raw = ExpressionReader.argument(call, "rawValue").flatMap({
                ExpressionReader.unwrapped($0).as(StringLiteralExprSyntax.self)?.representedLiteralValue
            }), Self.isMethodName(raw)
        {
            return raw
        }
        return nil
    }

    static func isMethodName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 32
            && name.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
    }

    /// A base URL: `URL(string: "…")!`, `GeneratedURL.make("…")`, or a choice between two
    /// literals (`isStaging ? "…" : "…"`), whose first is an environment.
    private func readBaseURL(_ expression: ExprSyntax) -> (
        base: String, environments: [(name: String, baseURL: String)]
    )? {
        var inner = ExpressionReader.unwrapped(expression)
        if let call = inner.as(FunctionCallExprSyntax.self), let only = call.arguments.first,
            ["URL", "make", "init"].contains(ExpressionReader.calleeName(call))
        {
            inner = ExpressionReader.unwrapped(only.expression)
        }
        if let reference = ExpressionReader.configurationReference(inner, in: configuration) {
            return (reference, [])
        }
        if let literal = inner.as(StringLiteralExprSyntax.self), literal.representedLiteralValue == nil {
            // `"http://127.0.0.1:\(X.configuration.port ?? "8080")"`: references inside a literal.
            var text = ""
            for segment in literal.segments {
                switch segment {
                case .stringSegment(let part): text += ExpressionReader.unescaped(part.content.text, pounds: 0)
                case .expressionSegment(let part):
                    guard let only = part.expressions.first,
                        let reference = ExpressionReader.configurationReference(only.expression, in: configuration)
                    else { return nil }
                    text += reference
                }
            }
            if Self.isBaseURL(text) || text.hasPrefix("${") { return (text, []) }
        }
        if let literal = inner.as(StringLiteralExprSyntax.self)?.representedLiteralValue,
            Self.isBaseURL(literal)
        {
            return (literal, [])
        }
        if let sequence = inner.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
            let elements = Array(sequence.elements)
            if let ternary = elements[1].as(UnresolvedTernaryExprSyntax.self),
                let then = ExpressionReader.unwrapped(ternary.thenExpression).as(StringLiteralExprSyntax.self)?
                    .representedLiteralValue,
                let otherwise = ExpressionReader.unwrapped(elements[2]).as(StringLiteralExprSyntax.self)?
                    .representedLiteralValue, Self.isBaseURL(then), Self.isBaseURL(otherwise)
            {
                var condition = elements[0].trimmedDescription
                if let last = condition.split(separator: ".").last { condition = String(last) }
                for prefix in ["is", "use", "uses", "using"]
                where condition.hasPrefix(prefix) && condition.count > prefix.count {
                    condition = String(condition.dropFirst(prefix.count))
                }
                var name = Self.identifier(condition.prefix(1).lowercased() + condition.dropFirst())
                if name == "production" || name.isEmpty { name = "alternative" }
                return (otherwise, [(name, then), ("production", otherwise)])
            }
        }
        return nil
    }

    static func isBaseURL(_ text: String) -> Bool {
        (text.hasPrefix("https://") || text.hasPrefix("http://")) && !text.replacingReferences().contains("{")
            && !text.utf8.contains { $0 < 0x21 || $0 == 0x7F }
    }

    static func validation(_ expression: ExprSyntax) -> YAMLText? {
        let expression = ExpressionReader.unwrapped(expression)
        if let member = expression.as(MemberAccessExprSyntax.self) {
            switch member.declName.baseName.text {
            case "none": return .string("none")
            case "successCodes": return .string("successCodes")
            case "successAndRedirectCodes": return .string("successAndRedirectCodes")
            default: return nil
            }
        }
        if let call = expression.as(FunctionCallExprSyntax.self), ExpressionReader.calleeName(call) == "customCodes",
            let array = call.arguments.first.map({ ExpressionReader.unwrapped($0.expression) })?.as(
                ArrayExprSyntax.self)
        {
            var codes: [YAMLText] = []
            for element in array.elements {
                guard let code = element.expression.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue,
                    (100...599).contains(code)
                else { return nil }
                codes.append(.int(code))
            }
            return .list(codes)
        }
        return nil
    }

    // MARK: Auth

    enum AuthKind: Equatable {
        case bearer, basic
        case custom(String)

        var schemeName: String {
            switch self {
            case .bearer: "bearer"
            case .basic: "basic"
            case .custom(let scheme):
                TargetFileValidator.isIdentifier(scheme) && scheme != "none" && scheme != "bearer" && scheme != "basic"
                    ? scheme : "custom"
            }
        }
    }

    /// `.bearer`, `.basic`, `.custom("Token")`; `nil` (no credentials) is `.some(nil)`.
    static func authKind(_ expression: ExprSyntax) -> (kind: AuthKind?, Void)? {
        let expression = ExpressionReader.unwrapped(expression)
        if expression.is(NilLiteralExprSyntax.self) { return (nil, ()) }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            switch member.declName.baseName.text {
            case "bearer": return (.bearer, ())
            case "basic": return (.basic, ())
            case "none": return (nil, ())
            default: return nil
            }
        }
        if let call = expression.as(FunctionCallExprSyntax.self), ExpressionReader.calleeName(call) == "custom",
            let scheme = call.arguments.first.flatMap({
                ExpressionReader.unwrapped($0.expression).as(StringLiteralExprSyntax.self)?.representedLiteralValue
            }), !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
        {
            return (.custom(scheme), ())
        }
        return nil
    }

    private mutating func authYAML(_ kind: AuthKind) -> YAMLText {
        switch kind {
        case .bearer:
            let token = NewCase.secretVariable(apiName: apiName, part: "TOKEN")
            if !variables.contains(token) { variables.append(token) }
            return .map([.init("type", .string("bearer")), .init("token", .string("${secret:\(token)}"))])
        case .basic:
            let user = NewCase.secretVariable(apiName: apiName, part: "USERNAME")
            let password = NewCase.secretVariable(apiName: apiName, part: "PASSWORD")
            for variable in [user, password] where !variables.contains(variable) { variables.append(variable) }
            return .map([
                .init("type", .string("basic")), .init("username", .string("${\(user)}")),
                .init("password", .string("${secret:\(password)}"))
            ])
        case .custom(let scheme):
            let token = NewCase.secretVariable(apiName: apiName, part: "TOKEN")
            if !variables.contains(token) { variables.append(token) }
            return .map([
                .init("type", .string("custom")), .init("scheme", .string(scheme)),
                .init("token", .string("${secret:\(token)}"))
            ])
        }
    }

    // MARK: Samples

    private mutating func readSample(
        _ expression: ExprSyntax, reader: inout ExpressionReader, caseName: String, place: String
    ) -> YAMLText? {
        guard let data = reader.data(expression) else {
            reader.note(
                expression, "the sample is computed by the app (\(ExpressionReader.short(expression))): left out")
            return nil
        }
        switch data {
        case .text(let text): return .string(text)
        case .json(let value): return .map([.init("json", value)])
        case .empty: return .map([.init("status", .int(200))])
        case .file(let path): return .map([.init("file", .string(path))])
        case .bundle(let resource, let type):
            return readBundleSample(resource, type: type, at: Syntax(expression), reader: &reader, caseName: caseName)
        }
    }

    mutating func readBundleSample(
        _ resource: String, type: String?, at expression: Syntax, reader: inout ExpressionReader, caseName: String
    ) -> YAMLText? {
        do {
            let wanted = type.map { resource + "." + $0 } ?? resource
            guard let folder = samplesFolder, let found = Self.findSample(resource, type: type, in: folder) else {
                reader.note(
                    expression,
                    "the sample is the app's bundle resource \(wanted)\(samplesFolder == nil ? ": give --samples DIR holding it" : ", not found in \(samplesFolder ?? "")"): left out"
                )
                return nil
            }
            let destination = "samples/\(apiName)/\(found.name)"
            if found.name.hasSuffix(".json") {
                guard let bytes = Self.readFile(found.path), (try? JSONValue(parsing: bytes)) != nil else {
                    reader.note(expression, "the sample file \(found.path) is not JSON: left out")
                    return nil
                }
            }
            if !sampleFiles.contains(where: { $0.path == destination }) {
                sampleFiles.append(.init(path: destination, source: found.path))
            }
            return .map([.init("file", .string(NewCase.literal(destination)))])
        }
    }

    /// `resource.type` in `folder`, or with no type the first `resource.*` (by name).
    static func findSample(_ resource: String, type: String?, in folder: String) -> (name: String, path: String)? {
        guard !resource.contains("/"), resource != ".", resource != ".." else { return nil }
        let candidates: [String]
        if let type {
            candidates = [resource + "." + type]
        } else {
            var names: [String] = []
            if let directory = opendir(folder) {
                defer { closedir(directory) }
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name == resource || name.hasPrefix(resource + ".") { names.append(name) }
                }
            }
            candidates = names.sorted()
        }
        for name in candidates {
            let path = folder + "/" + name
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { return (name, path) }
        }
        return nil
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > 64 << 20 { return nil }
        }
        return bytes
    }
}

extension String {
    /// The text with its `${…}` references taken out (a base URL may hold them, not placeholders).
    fileprivate func replacingReferences() -> String {
        var result = ""
        var rest = Substring(self)
        while let start = rest.firstIndex(of: "$") {
            result += rest[..<start]
            let after = rest[start...].dropFirst()
            if after.first == "{", let end = after.firstIndex(of: "}") {
                rest = rest[rest.index(after: end)...]
            } else {
                result.append("$")
                rest = after
            }
        }
        return result + rest
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
