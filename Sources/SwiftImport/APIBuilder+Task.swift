import SwiftSyntax
import TargetModel

/// A case's `task` (or its pre-Moya-10 `parameters` and `parameterEncoding`) as a target file's `task` map.
extension APIBuilder {
    mutating func readTask(
        _ expression: ExprSyntax, reader: inout ExpressionReader, caseName: String, place: String
    ) -> [YAMLText.Entry] {
        let expression = ExpressionReader.unwrapped(expression)
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "requestPlain" {
            return []
        }
        guard let call = expression.as(FunctionCallExprSyntax.self) else {
            reader.note(
                expression, "the task \(ExpressionReader.short(expression)) is computed by the app: nothing is sent")
            return []
        }
        let arguments = Array(call.arguments)
        func argument(_ label: String?, at position: Int) -> ExprSyntax? {
            ExpressionReader.argument(call, label)
                ?? (position < arguments.count ? arguments[position].expression : nil)
        }
        switch ExpressionReader.calleeName(call) {
        case "requestData":
            guard let body = argument(nil, at: 0) else { return [] }
            return dataEntries(body, reader: &reader)
        case "requestJSONEncodable", "requestCustomJSONEncodable":
            if let body = arguments.first?.expression, let json = encodableJSON(body, reader: &reader) {
                reader.note(
                    body,
                    "the body is \(ExpressionReader.short(body)) as JSON with its members' names (its CodingKeys' when declared); an encoder's key or date strategy is the app's"
                )
                return [.init("json", json)]
            }
            reader.note(
                expression,
                "the body is the app's Encodable value (\(ExpressionReader.short(arguments.first?.expression ?? expression))): left out; write it as a json task"
            )
            return []
        case "requestParameters":
            guard let parameters = argument("parameters", at: 0) else { return [] }
            var entries = parameterEntries(parameters, reader: &reader)
            entries += encodingEntries(argument("encoding", at: 1), reader: &reader)
            return entries
        case "requestCompositeData":
            guard let body = argument("bodyData", at: 0) else { return [] }
            var entries = dataEntries(body, reader: &reader)
            entries += queryEntries(argument("urlParameters", at: 1), reader: &reader)
            return entries
        case "requestCompositeParameters":
            guard let parameters = argument("bodyParameters", at: 0) else { return [] }
            var entries = parameterEntries(parameters, reader: &reader)
            var encoding = encodingEntries(argument("bodyEncoding", at: 1), reader: &reader)
            if encoding.first?.key == "encoding", case .string("url") = encoding[0].value,
                !encoding.contains(where: { $0.key == "destination" })
            {
                encoding.append(.init("destination", .string("httpBody")))
            }
            entries += encoding
            entries += queryEntries(argument("urlParameters", at: 2), reader: &reader)
            return entries
        case "uploadFile":
            guard let file = argument(nil, at: 0), let path = reader.filePath(file) else {
                reader.note(expression, "the uploaded file is chosen by the app: nothing is sent")
                return []
            }
            return [.init("upload", .string(path))]
        case "uploadMultipart", "uploadCompositeMultipart":
            guard let parts = argument(nil, at: 0) else { return [] }
            let read = multipartParts(parts, reader: &reader)
            guard !read.isEmpty else { return [] }
            var entries = [YAMLText.Entry("multipart", .list(read))]
            if ExpressionReader.calleeName(call) == "uploadCompositeMultipart" {
                entries += queryEntries(argument("urlParameters", at: 1), reader: &reader)
            }
            return entries
        case "downloadDestination", "downloadParameters":
            let destination = ExpressionReader.argument(call, "destination") ?? arguments.first?.expression
            var path: String?
            if let destination,
                let destinationCall = ExpressionReader.unwrapped(destination).as(FunctionCallExprSyntax.self),
                ExpressionReader.calleeName(destinationCall) == "destination",
                let first = destinationCall.arguments.first?.expression
            {
                path = reader.template(first, use: .file)
            }
            if path == nil {
                path = "downloads/\(caseName)"
                reader.note(
                    destination ?? expression,
                    "the download's destination is the app's (\(ExpressionReader.short(destination ?? expression))): the file is saved as downloads/\(caseName)"
                )
            }
            var entries = [YAMLText.Entry("download", .string(path ?? ""))]
            if ExpressionReader.calleeName(call) == "downloadParameters",
                let parameters = ExpressionReader.argument(call, "parameters")
            {
                entries += parameterEntries(parameters, reader: &reader)
                entries += encodingEntries(ExpressionReader.argument(call, "encoding"), reader: &reader)
            }
            return entries
        default:
            reader.note(
                expression,
                "the task \(ExpressionReader.short(expression)) is not one the import reads: nothing is sent")
            return []
        }
    }

    /// `CreateUser(name: name, age: 3)` for a struct the sources declare: a JSON object of its
    /// arguments, keyed by its `CodingKeys` raw values when it declares them; `nil` otherwise.
    private func encodableJSON(_ expression: ExprSyntax, reader: inout ExpressionReader) -> YAMLText? {
        guard let call = ExpressionReader.unwrapped(expression).as(FunctionCallExprSyntax.self),
            let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
            let declared = declarations.types.first(where: {
                $0.name == identifierText(reference.baseName) && $0.kind == "struct"
            }),
            call.arguments.allSatisfy({ $0.label != nil })
        else { return nil }
        var keys: [String: String] = [:]
        if let codingKeys = declarations.types.first(where: {
            $0.qualifiedName == declared.qualifiedName + ".CodingKeys"
        }) {
            for element in codingKeys.caseDecls {
                let name = identifierText(element.node.name)
                keys[name] =
                    element.node.rawValue?.value.as(StringLiteralExprSyntax.self)?.representedLiteralValue ?? name
            }
        }
        var members: [YAMLText.Entry] = []
        for argument in call.arguments {
            let label = argument.label.map(identifierText) ?? ""
            if !keys.isEmpty, keys[label] == nil { continue }
            guard let value = reader.json(argument.expression) else { continue }
            members.append(.init(keys[label] ?? label, value))
        }
        return .map(members)
    }

    /// The pre-Moya-10 `parameters` (a dictionary or nil) and `parameterEncoding` members.
    mutating func readOldParameters(
        parameters: (ExprSyntax?, String)?, encoding: (ExprSyntax?, String)?, reader: inout ExpressionReader,
        caseName: String
    ) -> [YAMLText.Entry] {
        guard let (expression, place) = parameters else { return [] }
        guard let expression else {
            notes.append(
                SwiftImportNote(
                    place: place, caseName: caseName, message: "the parameters are computed by the app: left out"))
            return []
        }
        if ExpressionReader.unwrapped(expression).is(NilLiteralExprSyntax.self) { return [] }
        var entries = parameterEntries(expression, reader: &reader)
        guard !entries.isEmpty else { return [] }
        entries += encodingEntries(encoding?.0, reader: &reader)
        return entries
    }

    private func isEmptyMap(_ value: YAMLText) -> Bool {
        if case .map(let members) = value { return members.isEmpty }
        return false
    }

    private func dataEntries(_ body: ExprSyntax, reader: inout ExpressionReader) -> [YAMLText.Entry] {
        switch reader.data(body) {
        case .text(let text): return [.init("data", .string(text))]
        case .json(let value): return [.init("json", value)]
        case .empty: return [.init("data", .string(""))]
        case .file(let path): return [.init("dataFile", .string(path))]
        case .bundle(let resource, let type):
            reader.note(
                body, "the body is the app's bundle resource \(resource + (type.map { "." + $0 } ?? "")): left out")
            return []
        case nil:
            reader.note(body, "the body is computed by the app (\(ExpressionReader.short(body))): left out")
            return []
        }
    }

    private func parameterEntries(_ parameters: ExprSyntax, reader: inout ExpressionReader) -> [YAMLText.Entry] {
        guard let value = reader.json(parameters) else { return [] }
        guard case .map = value else {
            reader.note(parameters, "the parameters are not a dictionary literal: left out")
            return []
        }
        return [.init("parameters", value)]
    }

    private func queryEntries(_ query: ExprSyntax?, reader: inout ExpressionReader) -> [YAMLText.Entry] {
        guard let query, let dictionary = ExpressionReader.unwrapped(query).as(DictionaryExprSyntax.self),
            case .elements(let elements) = dictionary.content
        else {
            if let query, !ExpressionReader.unwrapped(query).is(DictionaryExprSyntax.self) {
                reader.note(query, "the URL parameters are computed by the app: left out")
            }
            return []
        }
        var members: [YAMLText.Entry] = []
        for element in elements {
            guard
                let key = ExpressionReader.unwrapped(element.key).as(StringLiteralExprSyntax.self)?
                    .representedLiteralValue,
                let value = reader.template(element.value, use: .other)
            else {
                reader.note(element, "a URL parameter the app computes: left out")
                continue
            }
            members.append(.init(key, .string(value)))
        }
        return members.isEmpty ? [] : [.init("query", .map(members))]
    }

    /// `URLEncoding.default`, `.queryString`, `.httpBody`, `URLEncoding(destination:arrayEncoding:boolEncoding:)`,
    /// `JSONEncoding.default`, `.prettyPrinted`, `PropertyListEncoding`.
    private func encodingEntries(_ expression: ExprSyntax?, reader: inout ExpressionReader) -> [YAMLText.Entry] {
        guard let expression else { return [.init("encoding", .string("url"))] }
        let unwrapped = ExpressionReader.unwrapped(expression)
        var typeName = ""
        var memberName = ""
        var call: FunctionCallExprSyntax?
        if let member = unwrapped.as(MemberAccessExprSyntax.self) {
            typeName = member.base?.trimmedDescription ?? ""
            memberName = member.declName.baseName.text
        } else if let found = unwrapped.as(FunctionCallExprSyntax.self) {
            call = found
            typeName = found.calledExpression.trimmedDescription
        }
        typeName = String(typeName.split(separator: ".").last ?? "")
        func option(_ label: String) -> String? {
            call.flatMap { ExpressionReader.argument($0, label) }.flatMap {
                ExpressionReader.unwrapped($0).as(MemberAccessExprSyntax.self)?.declName.baseName.text
            }
        }
        switch typeName {
        case "URLEncoding", "":
            if typeName.isEmpty, call == nil,
                !["default", "queryString", "httpBody", "methodDependent"].contains(memberName)
            {
                break
            }
            var entries: [YAMLText.Entry] = [.init("encoding", .string("url"))]
            let destination =
                memberName == "queryString" || memberName == "httpBody" ? memberName : option("destination")
            if let destination, destination != "methodDependent" {
                entries.append(.init("destination", .string(destination)))
            }
            if let array = option("arrayEncoding"), array != "brackets" {
                entries.append(.init("arrayEncoding", .string(array)))
            }
            if let bool = option("boolEncoding"), bool != "numeric" {
                entries.append(.init("boolEncoding", .string(bool)))
            }
            return entries
        case "JSONEncoding":
            var entries: [YAMLText.Entry] = [.init("encoding", .string("json"))]
            if memberName == "prettyPrinted" { entries.append(.init("prettyPrinted", .bool(true))) }
            return entries
        case "PropertyListEncoding", "GeneratedPlistEncoding":
            var entries: [YAMLText.Entry] = [.init("encoding", .string("propertyList"))]
            if option("format") == "binary" { entries.append(.init("format", .string("binary"))) }
            return entries
        default:
            break
        }
        reader.note(expression, "the encoding \(ExpressionReader.short(expression)) is the app's: url is written")
        return [.init("encoding", .string("url"))]
    }

    /// `MultipartFormData(provider: .data(…) | .file(url), name:, fileName:, mimeType:)` parts.
    private func multipartParts(_ parts: ExprSyntax, reader: inout ExpressionReader) -> [YAMLText] {
        guard let array = ExpressionReader.unwrapped(parts).as(ArrayExprSyntax.self) else {
            reader.note(parts, "the multipart parts are computed by the app: left out")
            return []
        }
        var result: [YAMLText] = []
        for element in array.elements {
            var partExpression = ExpressionReader.unwrapped(element.expression)
            // An optional value's part: `avatar.map { avatar in MultipartFormData(…) }`.
            let saved = reader.bindings
            defer { reader.bindings = saved }
            if let call = partExpression.as(FunctionCallExprSyntax.self), ExpressionReader.calleeName(call) == "map",
                let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
                let valueName = reader.valueName(base), let closure = call.trailingClosure,
                closure.statements.count == 1, case .expr(let body)? = closure.statements.first?.item
            {
                reader.bindings["$0"] = valueName
                if case .simpleInput(let names)? = closure.signature?.parameterClause, let first = names.first {
                    reader.bindings[identifierText(first.name)] = valueName
                }
                partExpression = ExpressionReader.unwrapped(body)
            }
            guard let part = partExpression.as(FunctionCallExprSyntax.self),
                let name = ExpressionReader.argument(part, "name").flatMap({
                    reader.template($0, use: .other)
                }),
                let provider = ExpressionReader.argument(part, "provider").map(ExpressionReader.unwrapped)?
                    .as(FunctionCallExprSyntax.self),
                let content = provider.arguments.first?.expression
            else {
                reader.note(element, "a multipart part the import does not read: left out")
                continue
            }
            var members: [YAMLText.Entry] = [.init("name", .string(name))]
            switch ExpressionReader.calleeName(provider) {
            case "data":
                let inner = ExpressionReader.unwrapped(content)
                var isValue = false
                if let call = inner.as(FunctionCallExprSyntax.self), ExpressionReader.calleeName(call) == "Data",
                    let only = call.arguments.first?.expression,
                    let member = ExpressionReader.unwrapped(only).as(MemberAccessExprSyntax.self),
                    let base = member.base, !ExpressionReader.unwrapped(base).is(StringLiteralExprSyntax.self)
                {
                    isValue = true
                }
                switch reader.data(content) {
                case .text(let text): members.append(.init(isValue ? "value" : "data", .string(text)))
                case .empty: members.append(.init("data", .string("")))
                default:
                    reader.note(content, "the part '\(name)' is computed by the app: left out")
                    continue
                }
            case "file":
                guard let path = reader.filePath(content) else {
                    reader.note(content, "the part '\(name)' is a file the app chooses: left out")
                    continue
                }
                members.append(.init("file", .string(path)))
            default:
                reader.note(provider, "the part '\(name)' is a stream the app gives: left out")
                continue
            }
            if let fileName = ExpressionReader.argument(part, "fileName"),
                let text = ExpressionReader.unwrapped(fileName).as(StringLiteralExprSyntax.self)?
                    .representedLiteralValue
            {
                members.append(.init("fileName", .string(NewCase.literal(text))))
            }
            if let mimeType = ExpressionReader.argument(part, "mimeType"),
                let text = ExpressionReader.unwrapped(mimeType).as(StringLiteralExprSyntax.self)?
                    .representedLiteralValue
            {
                members.append(.init("mimeType", .string(NewCase.literal(text))))
            }
            result.append(.map(members))
        }
        return result
    }
}
