import FileIO
import FoundationEssentials
import HTTPTypes
import MoyaKit
import TargetModel
import TargetSpec
import TextSafety

/// `request --save-as CASE [--save-sample]`: the request that was sent, added as a case at the end
/// of its API's target file (see `CaseSaver`), once it has succeeded.
struct CaseSaving {
    var name: String
    var savesSample: Bool
    /// The target file's path.
    var file: String
    /// For a URL request: the API the case goes to (`--save-as API.CASE`), and whether its file
    /// is to be made (`targets/API.yaml`, the URL's origin as its base URL).
    var urlAPI: (name: String, spec: APISpec?)?

    /// Checks what can be checked before anything is sent: a valid case name the file does not
    /// have yet (or a new file that can be written), an API for a URL, no option a case cannot say.
    init(
        name given: String, savesSample: Bool, invocation: RequestInvocation, api: APISpec,
        credential: CommandLineCredential?
    ) throws {
        let words = invocation.words
        let isURL = words.count >= 2 && AdHocPath.isURL(words[1])
        var name = given
        var apiName: String?
        if let dot = given.firstIndex(of: ".") {
            apiName = String(given[..<dot])
            name = String(given[given.index(after: dot)...])
        }
        if isURL {
            guard let apiName else {
                throw CommandFailure(
                    .usage,
                    "--save-as \(DisplayText.escaped(given)): a URL has no target file; give --save-as API.\(DisplayText.escaped(given)), which adds the case to API's target file, or starts targets/API.yaml with the URL's origin as its base URL"
                )
            }
            guard TargetFileValidator.isAPIName(apiName) else {
                throw CommandFailure(
                    .usage,
                    "--save-as \(DisplayText.escaped(given)): '\(DisplayText.escaped(apiName))' is not an API name: letters, digits, '_' and '-', starting with a letter"
                )
            }
        } else if let apiName, apiName != api.name {
            throw CommandFailure(
                .usage,
                "--save-as \(DisplayText.escaped(given)) names the API '\(DisplayText.escaped(apiName))', but the request is to '\(api.name)'; give --save-as \(DisplayText.escaped(name))"
            )
        }
        guard invocation.overrideOptions.queryEdits.isEmpty else {
            throw CommandFailure(.usage, "--save-as cannot save --query edits; give the query as NAME==VALUE items")
        }
        if let removed = invocation.requestOptions.headerOverrides.first(where: { $0.value == nil }) {
            throw CommandFailure(
                .usage,
                "--save-as cannot save -H '\(removed.name):', which removes a header; a case cannot remove the API's headers"
            )
        }
        self.name = name
        self.savesSample = savesSample
        if isURL, let apiName {
            let existing = try Self.loadedAPI(named: apiName)
            urlAPI = (apiName, existing)
            file = existing?.file ?? "targets/\(apiName).yaml"
            if existing == nil {
                do throws(TargetFileEditError) {
                    try CaseAppender.checkName(name)
                } catch {
                    throw CommandFailure.reporting(error)
                }
                try ImportedTargetFile.checkWritable(file, replacing: false)
                return
            }
        } else {
            file = api.file
        }
        do throws(TargetFileEditError) {
            try CaseSaver.checkNewCase(named: name, inFileAt: file, credential: credential.map(Self.schemeKind))
        } catch {
            throw CommandFailure.reporting(error)
        }
    }

    /// The API `name` where `call` finds it, from its own file; `nil` when there is none.
    private static func loadedAPI(named name: String) throws -> APISpec? {
        do {
            let (_, api) = try CatalogLoader(options: TargetOptions()).api(named: name)
            return api.file.isEmpty ? nil : api
        } catch let failure as CommandFailure where failure.status == .usage {
            return nil
        }
    }

    /// Adds the case `request` as sent (`override` holding the `--json`/`--data` body), with
    /// `response` as its sample when `--save-sample` was given; says on stderr what was written
    /// and which variables the secrets are read from.
    func save(
        _ request: AdHocRequest, target: DynamicTarget, credential: CommandLineCredential?,
        invocation: RequestInvocation, override: RequestOverridePlugin,
        response: Response
    ) throws {
        var sentBody: [UInt8]?
        switch override.body?.contents {
        case .bytes(let data)?: sentBody = Array(data)
        case .file?:
            throw CommandFailure(
                .usage,
                "the body is too large to save in a case (over \(BodyInput.memoryThreshold) bytes); nothing was saved")
        case nil: break
        }
        let extra = invocation.requestOptions.headerOverrides.compactMap { header in
            header.value.map { NewCase.Header(name: header.name, value: $0) }
        }
        let saved:
            (
                secrets: [RenderedCase.SecretReference], sampleOmission: String?, credentialValues: [CredentialValue]
            )
        var made: NewAPIFile?
        do throws(TargetFileEditError) {
            // -u, --digest and --bearer: the case reads them from the API's auth scheme of that type
            // (added when the API has none), whose variables hold them; never the values.
            var newCase = try NewCase(request, sentBody: sentBody, extraHeaders: extra)
            newCase.secretValues = target.secretValues + (credential.map(Self.secretValues) ?? [])
            let origin = try? AdHocPath.split(url: invocation.words[1]).origin
            for note in newCase.addFileExamples(from: request, targetFile: file) {
                StandardStream.error.write("moya-cli: \(DisplayText.escaped(note))\n")
            }
            if savesSample {
                let contentType = response.response?.headers[HTTPField.Name.contentType]
                newCase.sample = NewCase.Sample(
                    status: response.statusCode, contentType: contentType, body: Array(response.data),
                    bodyLength: response.bodyLength)
            }
            if let urlAPI, let origin, urlAPI.spec == nil {
                made = try CaseSaver.newFile(
                    newCase, as: name, apiName: urlAPI.name, origin: origin,
                    credential: credential.map(Self.schemeKind),
                    header: ["Made by moya-cli request --save-as; see moya-targets(5)."])
                saved = (made?.secrets ?? [], made?.sampleOmission, made?.credentialValues ?? [])
            } else {
                if let api = urlAPI?.spec, let origin { newCase.place(origin: origin, under: api) }
                let added = try CaseSaver.save(
                    newCase, as: name, toFileAt: file, credential: credential.map(Self.schemeKind))
                StandardStream.error.write("moya-cli: saved case '\(name)' in \(file) (line \(added.line))\n")
                saved = (added.secrets, added.sampleOmission, added.credentialValues)
            }
        } catch {
            throw CommandFailure.reporting(error)
        }
        if let made, let urlAPI {
            // A new API: its file, with the URL's origin as its base URL.
            try ImportedTargetFile.write(made.text, to: file, replacing: false, sampleFiles: made.sampleFiles)
            StandardStream.error.write("moya-cli: wrote \(file): API '\(urlAPI.name)' with the case '\(name)'\n")
        }
        do {
            for credential in saved.credentialValues {
                StandardStream.error.write(
                    "moya-cli: the case takes \(DisplayText.escaped(credential.place)), a credential, as its value '\(credential.value)': it is not written; give it when you call the case\n"
                )
            }
            for secret in saved.secrets {
                StandardStream.error.write(
                    "moya-cli: the case reads \(secret.header) from ${secret:\(secret.variable)}; set \(secret.variable) to call it\n"
                )
            }
            if let credential {
                let option =
                    switch credential {
                    case .basic: "-u USER:PASSWORD"
                    case .digest: "--digest -u USER:PASSWORD"
                    case .bearer: "--bearer TOKEN"
                    }
                StandardStream.error.write(
                    "moya-cli: or give \(option) as you did: moya-cli call \(DisplayText.escaped(urlAPI?.name ?? invocation.words.first ?? "API")) \(name) \(option)\n"
                )
            }
            if let step = TrustHint.step(file: file, variables: saved.secrets.map(\.variable)) {
                StandardStream.error.write("moya-cli: next: \(DisplayText.escaped(step)), as the file is not trusted\n")
            }
            if let omission = saved.sampleOmission { StandardStream.error.write("moya-cli: \(omission)\n") }
        }
    }

    /// The values a command-line credential holds, never written in any spelling: the token, the
    /// password and the `user:password` pair (its base64 is in the header the case reads).
    static func secretValues(_ credential: CommandLineCredential) -> [String] {
        switch credential {
        case .basic(let user, let password), .digest(let user, let password):
            [password, user + ":" + password, Data((user + ":" + password).utf8).base64EncodedString()]
        case .bearer(let token): [token]
        }
    }

    /// The type of auth scheme a command-line credential is saved as.
    static func schemeKind(_ credential: CommandLineCredential) -> AuthSchemeEdit.Kind {
        switch credential {
        case .basic: .basic
        case .digest: .digest
        case .bearer: .bearer
        }
    }
}

extension NewCase {
    /// A request sent to `origin` (a URL's), as a case of `api`: its path under the API's base URL
    /// when it is on it, else the case's own `baseURL` (as `import curl` adds a command sent elsewhere).
    mutating func place(origin: String, under api: APISpec) {
        guard api.baseURL.environmentReferences.isEmpty,
            let base = try? AdHocPath.split(url: api.baseURL.source), base.origin.lowercased() == origin.lowercased()
        else {
            baseURL = origin
            return
        }
        let basePath = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
        if basePath.isEmpty {
            return
        } else if path.hasPrefix(basePath + "/") || path == basePath {
            path = String(path.dropFirst(basePath.count))
            if path.isEmpty { path = "/" }
        } else {
            baseURL = origin
        }
    }
}

extension NewCase {
    /// The largest file copied beside the target file as a `file` value's example.
    static let maximumExampleFileBytes = 64 << 10

    /// Gives each `file` value the file its part was sent with as the case's example: its path
    /// when the file is in the target file's folder, else a copy beside the target file when it
    /// is a regular file of at most 64 KiB. What is left without one is said (the notes).
    mutating func addFileExamples(from request: AdHocRequest, targetFile: String) -> [String] {
        guard case .multipart(let parts) = request.sent.body else { return [] }
        let current = FileManager.default.currentDirectoryPath
        var folder = APISpec.folder(of: targetFile)
        if !folder.hasPrefix("/") { folder = current + (folder == "." ? "" : "/" + folder) }
        var notes: [String] = []
        for part in parts {
            guard case .file = part.content, let path = part.path else { continue }
            if path.hasPrefix(folder + "/") {
                fileExamples[part.name] = .inFolder(String(path.dropFirst(folder.count + 1)))
                continue
            }
            guard let bytes = Self.smallRegularFile(path) else {
                notes.append(
                    "the file value '\(part.name)' has no example (its file is outside the target file's folder and not a regular file of at most 64 KiB to copy): give one in the case's examples for check"
                )
                continue
            }
            let name = path.split(separator: "/").last.map(String.init) ?? ""
            let dot = name.lastIndex(of: ".").map { name[$0...] } ?? ""
            let fileExtension =
                dot.count > 1 && dot.count <= 10 && dot.dropFirst().allSatisfy { $0.isLetter || $0.isNumber }
                ? String(dot) : ""
            fileExamples[part.name] = .copy(bytes, fileExtension: fileExtension)
        }
        return notes
    }

    /// The bytes of the regular file at `path` when it holds at most ``maximumExampleFileBytes``.
    private static func smallRegularFile(_ path: String) -> [UInt8]? {
        guard case .contents(let bytes, _, _) = InputFile.readSmallRegularFile(path, limit: maximumExampleFileBytes)
        else { return nil }
        return bytes
    }
}
