import TargetModel
import TextSafety

extension CaseExpressions {
    /// The `Task` for `spec`, as `TaskConverter` makes it.
    mutating func task(_ spec: TaskSpec) -> SwiftExpression {
        switch spec {
        case .plain:
            return .atom(".requestPlain")
        case .data(let template):
            return .call(".requestData", [utf8Data(template)])
        case .dataFile(let path), .uploadFile(let path):
            // Streamed from the file as it is sent, as moya-cli sends it.
            return .call(".uploadFile", [fileURL(path)])
        case .json(let template):
            // Bytes in the file's member order, as moya-cli sends them (an Encodable would not keep it).
            return .call(
                ".requestCompositeData", [.prefixed("bodyData: ", jsonData(template)), .atom("urlParameters: [:]")])
        case .parameters(let members, let encoding):
            return .call(
                ".requestParameters",
                [.prefixed("parameters: ", parameters(members)), .prefixed("encoding: ", self.encoding(encoding))])
        case .compositeData(.dataFile(let path), let query):
            if module == .moyaKit {
                return .call(
                    ".uploadCompositeFile", [fileURL(path), .prefixed("urlParameters: ", parameters(query))])
            }
            // Moya 15 has no file body with URL parameters: the file is read whole.
            return .call(
                ".requestCompositeData",
                [
                    .prefixed("bodyData: ", .call("GeneratedFile.contents", [fileURL(path)])),
                    .prefixed("urlParameters: ", parameters(query))
                ])
        case .compositeData(let body, let query):
            let data: SwiftExpression =
                switch body {
                case .data(let template): utf8Data(template)
                case .json(let template): jsonData(template)
                case .dataFile(let path): .call("GeneratedFile.contents", [fileURL(path)])
                }
            return .call(
                ".requestCompositeData",
                [.prefixed("bodyData: ", data), .prefixed("urlParameters: ", parameters(query))])
        case .compositeParameters(let body, let encoding, let query):
            return .call(
                ".requestCompositeParameters",
                [
                    .prefixed("bodyParameters: ", parameters(body)),
                    .prefixed("bodyEncoding: ", self.encoding(encoding)),
                    .prefixed("urlParameters: ", parameters(query))
                ])
        case .multipart(let parts):
            return .call(".uploadMultipart", [multipart(parts)])
        case .compositeMultipart(let parts, let query):
            return .call(
                ".uploadCompositeMultipart", [multipart(parts), .prefixed("urlParameters: ", parameters(query))])
        case .download(let destination):
            return .call(".downloadDestination", [downloadDestination(destination)])
        case .downloadParameters(let members, let encoding, let destination):
            return .call(
                ".downloadParameters",
                [
                    .prefixed("parameters: ", parameters(members)), .prefixed("encoding: ", self.encoding(encoding)),
                    .prefixed("destination: ", downloadDestination(destination))
                ])
        }
    }

    /// `Data("text".utf8)`.
    mutating func utf8Data(_ template: Template) -> SwiftExpression {
        .call("Data", [.atom(string(template).flat + ".utf8")])
    }

    /// The bytes of a JSON body.
    mutating func jsonData(_ template: JSONTemplate) -> SwiftExpression {
        let tree = json(template)
        // A lone optional value's JSON is optional: nothing given sends `null`, as moya-cli's
        // rendering of a body that is only that value.
        if case .atom(let text) = tree, text.hasPrefix(".") {
            return .atom("GeneratedJSON" + text + ".data")
        }
        if case .atom(let text) = tree, text.hasPrefix("GeneratedJSON") {
            return .atom(text + ".data")
        }
        if case .call(let head, let arguments, let tail) = tree, head.hasPrefix(".") {
            return .call("GeneratedJSON" + head, arguments, tail: tail + ".data")
        }
        return .atom("(" + tree.flat + " ?? GeneratedJSON.null).data")
    }

    /// A parameter encoding, as `TaskConverter.encoding(_:)` makes it.
    func encoding(_ spec: ParameterEncodingSpec) -> SwiftExpression {
        switch spec {
        case .url(.methodDependent, .brackets, .numeric):
            return .atom("URLEncoding.default")
        case .url(let destination, let arrays, let bools):
            let arrayEncoding: String =
                switch arrays {
                case .brackets: ".brackets"
                case .noBrackets: ".noBrackets"
                case .indexInBrackets: ".indexInBrackets"
                // Alamofire has no comma encoding: the Moya output sends key=a&key=b.
                case .comma: module == .moyaKit ? ".commaSeparated" : ".noBrackets"
                }
            return .call(
                "URLEncoding",
                [
                    .atom("destination: ." + destination.rawValue), .atom("arrayEncoding: " + arrayEncoding),
                    .atom("boolEncoding: ." + bools.rawValue)
                ])
        case .json(let prettyPrinted):
            return .atom(prettyPrinted ? "JSONEncoding.prettyPrinted" : "JSONEncoding.default")
        case .propertyList(let format):
            if module == .moyaKit { return .atom("PropertyListEncoding." + format.rawValue) }
            return .call("GeneratedPlistEncoding", [.atom("format: ." + format.rawValue)])
        }
    }

    /// The parts sent; a part that is a lone optional value not given is left out.
    private mutating func multipart(_ parts: [MultipartPartSpec]) -> SwiftExpression {
        var hasOptional = false
        var expressions: [SwiftExpression] = []
        for part in parts {
            let template: Template
            switch part.content {
            case .value(let content), .data(let content), .file(let content): template = content
            }
            if let name = template.soloPlaceholder, let value = value(named: name), isOptional(value) {
                hasOptional = true
                expressions.append(mapping(value) { $0.part(part) })
            } else {
                expressions.append(self.part(part))
            }
        }
        if hasOptional {
            return .prefixed("(", .collection(open: "[", expressions, close: "] as [\(partType)?]).compactMap { $0 }"))
        }
        return .collection(open: "[", expressions, close: "]")
    }

    /// `MultipartFormBodyPart` in MoyaKit, `MultipartFormData` in Moya 15.
    private var partType: String { module == .moyaKit ? "MultipartFormBodyPart" : "MultipartFormData" }

    private mutating func part(_ spec: MultipartPartSpec) -> SwiftExpression {
        var arguments: [SwiftExpression] = []
        switch spec.content {
        case .value(let template), .data(let template):
            arguments.append(.prefixed("provider: ", .call(".data", [utf8Data(template)])))
            arguments.append(.atom("name: " + SwiftLiteral.quoted(spec.name)))
            if let fileName = spec.fileName { arguments.append(.atom("fileName: " + SwiftLiteral.quoted(fileName))) }
            if let mimeType = spec.mimeType { arguments.append(.atom("mimeType: " + SwiftLiteral.quoted(mimeType))) }
        case .file(let template):
            let urlExpression = fileURL(template)
            let url = urlExpression.flat
            arguments.append(.prefixed("provider: ", .call(".file", [urlExpression])))
            arguments.append(.atom("name: " + SwiftLiteral.quoted(spec.name)))
            // A file the target file names has its name now; a value's is its last path component.
            let knownName = template.literalText.map { String($0.split(separator: "/").last ?? Substring($0)) }
            let fileName = spec.fileName.map(SwiftLiteral.quoted) ?? knownName.map(SwiftLiteral.quoted)
            arguments.append(.atom("fileName: " + (fileName ?? url + ".lastPathComponent")))
            if let mimeType = spec.mimeType {
                arguments.append(.atom("mimeType: " + SwiftLiteral.quoted(mimeType)))
            } else if let literal = template.literalText {
                // Known now: the type moya-cli gives this file's extension.
                let type = MultipartPartSpec.defaultMIMEType(forPath: literal)
                arguments.append(.atom("mimeType: " + SwiftLiteral.quoted(type)))
            } else {
                arguments.append(.atom("mimeType: GeneratedMIMEType.of(" + url + ")"))
            }
        }
        return .call(partType, arguments)
    }

    /// A download destination: the rendered path, in the folder the app gives
    /// (`Configuration.downloadsFolder`), its folders created.
    private mutating func downloadDestination(_ template: Template) -> SwiftExpression {
        usesDownloadsFolder = true
        return .call(
            "GeneratedFile.destination", [string(template), .atom("in: " + typeName + ".configuration.downloadsFolder")]
        )
    }
}
