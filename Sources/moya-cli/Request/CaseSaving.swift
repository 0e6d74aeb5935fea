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

    /// Checks what can be checked before anything is sent: an API (not a URL), a valid case name
    /// the file does not have yet, a file that can be replaced, no option a case cannot say.
    init(name: String, savesSample: Bool, invocation: RequestInvocation, api: APISpec) throws {
        let words = invocation.words
        guard !(words.count >= 2 && AdHocPath.isURL(words[1])), !api.file.isEmpty else {
            throw CommandFailure(
                .usage,
                "--save-as needs an API: moya-cli request API METHOD PATH ... --save-as CASE (a URL has no target file to add the case to)"
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
        file = api.file
        do throws(TargetFileEditError) {
            try CaseSaver.checkNewCase(named: name, inFileAt: file)
        } catch {
            throw CommandFailure.reporting(error)
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
        do throws(TargetFileEditError) {
            // -u and --bearer are saved as the header they sent, read from a ${secret:VAR}: never the
            // value. A digest answer is made for one challenge: no header can be saved for it.
            let credentials =
                credential.flatMap(Self.authorization).map { [NewCase.Header(name: "Authorization", value: $0)] } ?? []
            var newCase = try NewCase(request, sentBody: sentBody, extraHeaders: extra, credentials: credentials)
            newCase.secretValues = target.secretValues + (credential.map(Self.secretValues) ?? [])
            if savesSample {
                let contentType = response.response?.headers[HTTPField.Name.contentType]
                newCase.sample = NewCase.Sample(
                    status: response.statusCode, contentType: contentType, body: Array(response.data),
                    bodyLength: response.bodyLength)
            }
            let saved = try CaseSaver.save(newCase, as: name, toFileAt: file)
            StandardStream.error.write("moya-cli: saved case '\(name)' in \(file) (line \(saved.line))\n")
            for secret in saved.secrets {
                StandardStream.error.write(
                    "moya-cli: the case reads \(secret.header) from ${secret:\(secret.variable)}; set \(secret.variable) to call it\n"
                )
            }
            if let step = TrustHint.step(file: file, variables: saved.secrets.map(\.variable)) {
                StandardStream.error.write("moya-cli: next: \(DisplayText.escaped(step)), as the file is not trusted\n")
            }
            if let omission = saved.sampleOmission { StandardStream.error.write("moya-cli: \(omission)\n") }
        } catch {
            throw CommandFailure.reporting(error)
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

    /// The `Authorization` value a command-line credential sends up front; `nil` for a digest one.
    static func authorization(_ credential: CommandLineCredential) -> String? {
        switch credential {
        case .basic(let user, let password): "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        case .digest: nil
        }
    }
}
