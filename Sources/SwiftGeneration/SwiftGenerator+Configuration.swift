import TargetModel
import TextSafety

extension SwiftGenerator {
    /// `Configuration`, the values of the `${VAR}` references the written members read (and the
    /// files folder, and the app's access token), with the static `configuration` requests read;
    /// `false` when nothing needs one.
    mutating func writeConfiguration(into source: inout SwiftSource) -> Bool {
        let api = self.api
        let referenced = Set(references.map(\.name))
        let members = names.configurationMembers.filter { referenced.contains($0.variable) }
        let accessToken = usesAccessToken
        guard !members.isEmpty || usesFilesFolder || usesDownloadsFolder || accessToken else { return false }
        // The default environment's literal variables win over the process environment in moya-cli:
        // here they are the members' initial values.
        let environment = api.defaultEnvironment.flatMap { name in api.environments.first { $0.name == name } }
        var parameters: [SwiftExpression] = []
        var assignments: [String] = []
        source.block("extension " + typeName) { body in
            body.line("/// What the target file reads from the environment, which the app fills in before the first")
            body.line("/// request; a reference whose member is `nil` is sent as its fallback, or empty. Never put a")
            body.line("/// secret in the app's source: read it from the keychain or the app's own configuration.")
            body.block(access + "struct Configuration: Sendable") { fields in
                for (variable, member) in members {
                    let isSecret = references.contains { $0.name == variable && $0.isSecret }
                    fields.line(
                        "/// `${" + (isSecret ? "secret:" : "") + SwiftLiteral.commentText(variable) + "}`"
                            + (isSecret ? ": a secret." : "."))
                    let name = SwiftIdentifier.written(member)
                    fields.line(access + "var " + name + ": String?")
                    let initial = environment?.variables.first { $0.name == variable }?.value.literalText
                    parameters.append(.atom(name + ": String? = " + (initial.map(SwiftLiteral.quoted) ?? "nil")))
                    assignments.append("self." + name + " = " + name)
                }
                if usesFilesFolder {
                    fields.line(
                        "/// Where the files the target file names (bodies, uploads, samples) are: its folder, or the")
                    fields.line("/// app's bundle (`Bundle.main.resourceURL!`) or a folder the app names.")
                    fields.line(access + "var filesFolder: URL")
                    parameters.append(.atom("filesFolder: URL = URL(fileURLWithPath: \".\")"))
                    assignments.append("self.filesFolder = filesFolder")
                }
                if usesDownloadsFolder {
                    fields.line(
                        "/// The folder downloads are saved in (the app's Documents or Caches folder); the target file's"
                    )
                    fields.line("/// download paths are relative to it.")
                    fields.line(access + "var downloadsFolder: URL")
                    parameters.append(.atom("downloadsFolder: URL = URL(fileURLWithPath: \".\")"))
                    assignments.append("self.downloadsFolder = downloadsFolder")
                }
                if accessToken {
                    fields.line("/// The token `oauth2` or `command` auth sends, which the app obtains.")
                    fields.line(access + "var accessToken: String?")
                    parameters.append(.atom("accessToken: String? = nil"))
                    assignments.append("self.accessToken = accessToken")
                }
                fields.line()
                fields.expression(.call(access + "init", parameters, tail: " {"))
                fields.indent += 4
                for assignment in assignments { fields.line(assignment) }
                fields.indent -= 4
                fields.line("}")
            }
            body.line()
            body.line("/// The configuration every request reads; set it before the first one.")
            body.block(access + "static var configuration: Configuration") { property in
                property.line("get { configurationStore.value }")
                property.line("set { configurationStore.value = newValue }")
            }
            body.line()
            body.line("private static let configurationStore = GeneratedConfigurationStore(Configuration())")
        }
        return true
    }

    /// The private types the written members use.
    func writePrivateTypes(into source: inout SwiftSource, using text: String) {
        let types = GeneratedPrivateTypes.self
        var parts: [String] = [types.url]
        if text.contains("GeneratedPath.") { parts.append(types.path) }
        if text.contains("GeneratedJSON") { parts.append(types.json) }
        if text.contains("GeneratedFile.") { parts.append(types.file) }
        if text.contains("GeneratedMIMEType.") { parts.append(types.mimeTypes) }
        if text.contains("GeneratedPlistEncoding(") { parts.append(types.propertyListEncoding) }
        if text.contains("GeneratedConfigurationStore(") { parts.append(types.configurationStore) }
        for (index, part) in parts.enumerated() {
            if index > 0 { source.line() }
            for line in part.split(separator: "\n", omittingEmptySubsequences: false) { source.line(String(line)) }
        }
    }
}
