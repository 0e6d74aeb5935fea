import OrderedJSON
import TargetModel
import TextSafety

/// A request as a case: its members, the secrets it reads and the files it takes as values.
package struct ImportedCase: Sendable {
    package var name: String
    package var members: [YAMLText.Entry]
    /// The `${secret:VAR}` references written instead of credentials.
    package var secrets: [RenderedCase.SecretReference]
    /// The `file` values the case takes, with the file the command sent: `call API CASE FILE`.
    package var fileValues: [(value: String, sentFile: String)]
    /// The query parameters and body fields that carried a credential, now string values given
    /// when called: `parameter` names the place (`the query parameter api_key`, `the body field password`).
    package var secretValues: [(parameter: String, value: String)] = []
    /// Why the recorded response was not kept as the sample, if it was not.
    package var sampleOmission: String?
    /// The sample's body when it goes to a file beside the target file (too deep or too large).
    package var sampleFile: (path: String, bytes: [UInt8])?
    /// The bodies of its named samples that go to files beside the target file.
    package var namedSampleFiles: [(path: String, bytes: [UInt8])] = []

    /// Every sample file the case refers to.
    package var sampleFiles: [(path: String, bytes: [UInt8])] { [sampleFile].compactMap { $0 } + namedSampleFiles }
}

extension ImportedRequest {
    /// The case `name` of the API `apiName`: the path relative to `basePath` (the base URL's path),
    /// the query as parameters, the headers (credentials as `${secret:VAR}`), the body as a task.
    /// A request to another origin than `apiOrigin` (`nil`: the API's is not known) gets that
    /// origin as the case's own `baseURL`, and its whole path; when the API has auth
    /// (`apiHasAuth`), such a case sends none (`auth: none`): the API's credentials are for its
    /// own origin, not the snippet's host. `checkableOffline` makes the file's own offline `check`
    /// cover the case with no variable set: its values get `examples:` (a path number the one
    /// recorded, a credential a stand-in; a stubbed request stands in for unset secrets itself);
    /// `emptySecretFallback` (a capture) writes a credential header `${secret:VAR:-}` (a browser's
    /// cookies, which a live call may go without).
    package func importedCase(
        named name: String, apiName: String, sensitiveHeaders: Set<String> = [], basePath: String = "",
        apiOrigin: String? = nil, apiHasAuth: Bool = false, checkableOffline: Bool = false,
        emptySecretFallback: Bool = false
    ) throws(RequestImportError) -> ImportedCase {
        let ownOrigin = apiOrigin.map { $0 != url.origin } ?? false
        let basePath = ownOrigin ? "" : basePath
        let base = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        guard url.path == base || url.path.hasPrefix(base + "/") else {
            throw RequestImportError(
                "the path \(url.path) is not under the base URL's path \(base); import it under another --api",
                at: place)
        }
        var relative = String(url.path.dropFirst(base.count))
        if relative.isEmpty { relative = "/" }
        var newCase = NewCase(method: method, path: relative)
        if ownOrigin {
            newCase.baseURL = url.origin
            if apiHasAuth { newCase.auth = .none }
        }
        newCase.sample = sample
        newCase.headers = headers.map { header in
            var header = header
            header.isSecret = header.isSecret || CredentialNames.looksSecret(header.name)
            return header
        }
        var values: [YAMLText] = []
        var fileValues: [(value: String, sentFile: String)] = []
        var secretValues: [(parameter: String, value: String)] = []
        var task: [YAMLText.Entry] = []
        switch body {
        case .none:
            newCase.query = query
        case .bytes(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw RequestImportError(
                    "the body is not UTF-8 text; a case holds a text body (save the body to a file beside the target file and use dataFile)",
                    at: place)
            }
            newCase.body = .text(text)
            // A JSON body moya-cli would write byte for byte as curl sent it is kept as JSON, so
            // the case reads as one; any other (spaces, escapes, key order) stays the text sent.
            let contentType = headers.last { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
            if contentType.hasPrefix("application/json") || contentType.contains("+json"),
                let value = try? JSONValue(parsing: bytes), value.serializedBytes() == bytes
            {
                newCase.body = .json(value)
            }
            newCase.query = query
        case .multipart(let parts):
            var taken = Set<String>()
            var written: [YAMLText] = []
            for part in parts {
                try Self.checkOneLine(part.name, "the part name", at: place)
                var members = [YAMLText.Entry("name", .string(NewCase.literal(part.name)))]
                switch part.content {
                case .text(let bytes):
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        throw RequestImportError("the part \(part.name) is not UTF-8 text", at: place)
                    }
                    let isPlain = part.mimeType == nil && part.fileName == nil
                    members.append(YAMLText.Entry(isPlain ? "value" : "data", .string(NewCase.literal(text))))
                    if let fileName = part.fileName {
                        members.append(YAMLText.Entry("fileName", .string(NewCase.literal(fileName))))
                    }
                case .file(let path):
                    let value = NewCase.uniqueValueName(part.name, taken: &taken)
                    values.append(.map([YAMLText.Entry(value, .string("file"))]))
                    fileValues.append((value, path))
                    members.append(YAMLText.Entry("file", .string("{\(value)}")))
                    if let fileName = part.fileName {
                        members.append(YAMLText.Entry("fileName", .string(NewCase.literal(fileName))))
                    }
                }
                var mimeType = part.mimeType
                if mimeType == nil, case .file(let path) = part.content {
                    // curl guesses from fewer extensions than moya-cli: say what curl sent.
                    let sent = Self.curlMIMEType(forPath: part.fileName ?? path)
                    if sent != MultipartPartSpec.defaultMIMEType(forPath: path) { mimeType = sent }
                }
                if let mimeType {
                    try Self.checkOneLine(mimeType, "the part \(part.name)'s type", at: place)
                    members.append(YAMLText.Entry("mimeType", .string(NewCase.literal(mimeType))))
                }
                written.append(.map(members))
            }
            task.append(YAMLText.Entry("multipart", .list(written)))
            if !query.isEmpty {
                var names = Set<String>()
                for pair in query where !names.insert(pair.name).inserted {
                    throw RequestImportError(
                        "the query repeats '\(pair.name)' next to a body; a case with a body sends one value per query parameter",
                        at: place)
                }
                task.append(
                    YAMLText.Entry(
                        "query", .map(query.map { YAMLText.Entry($0.name, .string(NewCase.literal($0.value))) })))
            }
        case .upload(let path):
            guard query.isEmpty else {
                throw RequestImportError(
                    "a case that uploads a file (-T) cannot have a query; remove the query or send the file with --data-binary",
                    at: place)
            }
            values.append(.map([YAMLText.Entry("file", .string("file"))]))
            fileValues.append(("file", path))
            task.append(YAMLText.Entry("upload", .string("{file}")))
        }
        var hasBody = true
        if case .none = body { hasBody = false }
        if hasBody, MethodSemantics.carriesNoBody(method) {
            throw RequestImportError(
                "a \(method) request with a body cannot be a case (moya-targets(5)); give it another method with -X",
                at: place)
        }
        var rendered: RenderedCase
        var extraSampleFiles: [(path: String, bytes: [UInt8])] = []
        do throws(TargetFileEditError) {
            rendered = try newCase.render(
                apiName: apiName, sensitiveHeaders: sensitiveHeaders,
                sampleFileStem: SampleBody.fileStem(api: apiName, caseName: name),
                emptySecretFallback: emptySecretFallback)
        } catch {
            throw RequestImportError(error.message, at: place)
        }
        if !task.isEmpty {
            let sampleIndex = rendered.members.firstIndex { $0.key == "sample" } ?? rendered.members.count
            rendered.members.insert(YAMLText.Entry("task", .map(task)), at: sampleIndex)
        }
        var taken = Set(fileValues.map(\.value))
        // The credentials `render` took as values, then those of the task made here (a query
        // beside a multipart body): one rule, NewCase's, for both.
        if let index = rendered.members.firstIndex(where: { $0.key == "values" }),
            case .list(let made) = rendered.members[index].value
        {
            values += made
            rendered.members.remove(at: index)
        }
        var credentials = rendered.credentialValues
        taken.formUnion(credentials.map(\.value))
        let isForm =
            headers.last { $0.name.lowercased() == "content-type" }?.value.lowercased()
            .hasPrefix("application/x-www-form-urlencoded") ?? false
        let more = NewCase.credentialsAsValues(
            in: &rendered.members, isForm: isForm,
            secrets: newCase.sentSecrets(secretHeaderNames: Set(rendered.secrets.map { $0.header.lowercased() })),
            taken: &taken)
        values += more.map { .map([YAMLText.Entry($0.value, .string("string"))]) }
        credentials += more
        secretValues += credentials.map { ($0.place, $0.value) }
        var examples: [YAMLText] = []
        if basePath.isEmpty, !pathValues.isEmpty, !ownOrigin,
            let pathIndex = rendered.members.firstIndex(where: { $0.key == "path" }),
            // The path as rendered: a segment that was a credential is a value already.
            case .string(let renderedPath) = rendered.members[pathIndex].value
        {
            // `/items/123` as `/items/{id}`: the value's example is the number recorded.
            var segments = renderedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var made: [YAMLText] = []
            for value in pathValues
            where value.segment < segments.count && !taken.contains(value.name)
                && !segments[value.segment].hasPrefix("{")
            {
                taken.insert(value.name)
                segments[value.segment] = "{\(value.name)}"
                let isInt = Int(value.example) != nil
                made.append(.map([YAMLText.Entry(value.name, .string(isInt ? "int" : "string"))]))
                examples.append(isInt ? .int(Int(value.example) ?? 0) : .string(value.example))
            }
            rendered.members[pathIndex].value = .string(segments.joined(separator: "/"))
            values.insert(contentsOf: made, at: 0)
        }
        if !otherSamples.isEmpty, let sampleIndex = rendered.members.firstIndex(where: { $0.key == "sample" }) {
            var named: [YAMLText.Entry] = []
            var names = Set<String>()
            func unique(_ status: Int) -> String {
                var name = SampleBody.sampleName(status: status)
                var number = 2
                while names.contains(name) {
                    name = SampleBody.sampleName(status: status) + "\(number)"
                    number += 1
                }
                names.insert(name)
                return name
            }
            named.append(YAMLText.Entry(unique(sample?.status ?? 200), rendered.members[sampleIndex].value))
            for other in otherSamples {
                var response = NewCase(method: method, path: "/")
                response.sample = other
                response.secretValues = headers.filter(\.isSecret).map(\.value)
                let sampleName = unique(other.status)
                let made: RenderedCase
                do throws(TargetFileEditError) {
                    made = try response.render(
                        apiName: apiName,
                        sampleFileStem: SampleBody.fileStem(api: apiName, caseName: name, sampleName: sampleName))
                } catch {
                    throw RequestImportError(error.message, at: place)
                }
                guard let value = made.members.first(where: { $0.key == "sample" })?.value else { continue }
                if let file = made.sampleFile { extraSampleFiles.append(file) }
                named.append(YAMLText.Entry(sampleName, value))
            }
            rendered.members[sampleIndex] = YAMLText.Entry("samples", .map(named))
        }
        if !values.isEmpty { rendered.members.insert(YAMLText.Entry("values", .list(values)), at: 0) }
        if checkableOffline, !values.isEmpty, fileValues.isEmpty {
            // A credential's stand-in: `check` sends the case offline; a live call takes the real one.
            examples += secretValues.map { _ in YAMLText.string("example") }
            rendered.members.append(YAMLText.Entry("examples", .list([.list(examples)])))
        }
        return ImportedCase(
            name: name, members: rendered.members, secrets: rendered.secrets, fileValues: fileValues,
            secretValues: secretValues, sampleOmission: rendered.sampleOmission, sampleFile: rendered.sampleFile,
            namedSampleFiles: extraSampleFiles)
    }

    private static func checkOneLine(_ text: String, _ what: String, at place: TextPlace) throws(RequestImportError) {
        guard !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
            throw RequestImportError("\(what) '\(text.prefix(100))' holds CR, LF or NUL", at: place)
        }
    }

    /// The type curl 8 gives a file part from its name (`tool_formparse.c`).
    static func curlMIMEType(forPath path: String) -> String {
        let name = (path.split(separator: "/").last.map(String.init) ?? path).lowercased()
        let table: [(String, String)] = [
            (".gif", "image/gif"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".png", "image/png"),
            (".svg", "image/svg+xml"), (".txt", "text/plain"), (".htm", "text/html"), (".html", "text/html"),
            (".pdf", "application/pdf"), (".xml", "application/xml")
        ]
        return table.first { name.hasSuffix($0.0) }?.1 ?? "application/octet-stream"
    }
}
