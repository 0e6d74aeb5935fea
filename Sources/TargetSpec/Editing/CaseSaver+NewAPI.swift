import TargetModel
import TextSafety

/// A new target file made of one saved request (`request METHOD URL --save-as API.CASE` when the
/// API has no file yet): `api`, the URL's origin as `baseURL`, the auth scheme the command-line
/// credential needs, and the case.
package struct NewAPIFile: Sendable {
    /// The file's text (validated by the writer before anything is written).
    package var text: String
    /// The sample file its case refers to, for the writer to put beside it.
    package var sampleFiles: [(path: String, bytes: [UInt8])]
    /// The variables the file reads its secrets from, for the user to set.
    package var secrets: [RenderedCase.SecretReference]
    /// Why the sample given was not saved, if it was not.
    package var sampleOmission: String?
    /// The credentials outside headers the case takes as values, given when it is called.
    package var credentialValues: [CredentialValue] = []
}

extension CaseSaver {
    /// The text of a new target file for the API `apiName` at `origin` holding `newCase` as the
    /// case `name`, its credential (if any) read from an auth scheme of its type.
    package static func newFile(
        _ newCase: NewCase, as name: String, apiName: String, origin: String,
        credential: AuthSchemeEdit.Kind?, header: [String]
    ) throws(TargetFileEditError) -> NewAPIFile {
        try CaseAppender.checkName(name)
        guard TargetFileValidator.isAPIName(apiName) else {
            throw TargetFileEditError(
                .usage,
                "'\(DisplayText.escaped(apiName))' is not an API name: letters, digits, '_' and '-', starting with a letter"
            )
        }
        var newCase = newCase
        var root = [
            YAMLText.Entry("api", .string(apiName)),
            YAMLText.Entry("baseURL", .string(NewCase.literal(origin)))
        ]
        var secrets: [RenderedCase.SecretReference] = []
        if let credential {
            let (scheme, variables) = AuthSchemeEdit.scheme(credential, apiName: apiName)
            root.append(
                YAMLText.Entry(
                    "auth", .map([YAMLText.Entry("schemes", .map([YAMLText.Entry(credential.rawValue, scheme)]))])))
            newCase.auth = .scheme(credential.rawValue)
            secrets = variables
        }
        let rendered = try newCase.render(
            apiName: apiName, sampleFileStem: SampleBody.fileStem(api: apiName, caseName: name))
        root.append(YAMLText.Entry("cases", .map([YAMLText.Entry(name, .map(rendered.members))])))
        return NewAPIFile(
            text: YAMLText.render(root, header: header), sampleFiles: rendered.filesBeside,
            secrets: secrets + rendered.secrets, sampleOmission: rendered.sampleOmission,
            credentialValues: rendered.credentialValues)
    }
}
