import MoyaKit
import OrderedJSON
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What templates are rendered with, and the secrets met on the way.
struct RenderContext: Sendable {
    var api: APISpec
    var arguments: [String: ArgumentValue]
    var environment: [String: String]
    var variables: [String: String]
    /// The case's optional values: lone placeholders of those not given are left out.
    var optionalNames: Set<String>
    /// Process variables that are set but hidden from this file (`EnvironmentAllowance`): an
    /// unset-variable error names the rule for them.
    var hiddenVariableNames: Set<String> = []
    /// Told each hidden variable whose `${VAR:-fallback}` was used instead (`TargetBuilder.hiddenFallbackNotice`).
    var hiddenFallbackNotice: (@Sendable (String) -> Void)?
    var secretValues: [String] = []
    /// Whether a `file` value typed on the command line may name a stream (`-`, a FIFO,
    /// `/dev/stdin`): sent as it is read (`TargetBuilder.streamsCommandLineFiles`).
    var streamsCommandLineFiles = false

    init(
        api: APISpec, arguments: [String: ArgumentValue], environment: [String: String], variables: [String: String],
        optionalNames: Set<String> = []
    ) {
        self.api = api
        self.arguments = arguments
        self.environment = environment
        self.variables = variables
        self.optionalNames = optionalNames
    }

    /// Whether `template` is a lone placeholder of an optional value that was not given: then
    /// what it builds (a header, a multipart part) is left out.
    func leavesOut(_ template: Template) -> Bool {
        guard let name = template.soloPlaceholder else { return false }
        return optionalNames.contains(name) && arguments[name] == nil
    }

    /// Renders `template`, remembering the values of `${secret:...}` references.
    mutating func render(_ template: Template, escaping: Template.PlaceholderEscaping = .none) throws(TargetBuildError)
        -> String
    {
        for reference in template.environmentReferences where reference.isSecret {
            if let value = Template.value(of: reference, environment: environment, variables: variables) {
                secretValues.append(value)
            }
        }
        return try renderWithoutRecording(template, escaping: escaping)
    }

    /// Renders a template whose whole value is a secret (auth fields).
    mutating func renderSecret(_ template: Template) throws(TargetBuildError) -> String {
        let value = try render(template)
        secretValues.append(value)
        return value
    }

    func renderWithoutRecording(_ template: Template, escaping: Template.PlaceholderEscaping = .none)
        throws(TargetBuildError) -> String
    {
        let rendered: String
        do {
            rendered = try template.render(
                arguments: arguments, environment: environment, variables: variables, escaping: escaping)
        } catch {
            throw .render(
                error.notingHidden(hiddenVariableNames, referenced: api.environmentVariables, file: api.file),
                file: api.file)
        }
        if let hiddenFallbackNotice {
            Template.noteHiddenFallbacks(
                of: template, hidden: hiddenVariableNames, variables: variables, notice: hiddenFallbackNotice)
        }
        return rendered
    }

    /// Renders a JSON template into a `JSONValue`; a solo placeholder keeps its value's type.
    func render(_ template: JSONTemplate) throws(TargetBuildError) -> JSONValue {
        do {
            return try template.render(arguments: arguments, optionalNames: optionalNames)
        } catch {
            throw .render(error, file: api.file)
        }
    }

    /// Renders parameter members into an ordered JSON object; those of optional values not given
    /// are left out.
    func render(_ members: [JSONTemplate.Member]) throws(TargetBuildError) -> [String: any Sendable] {
        var parameters: [String: any Sendable] = [:]
        for member in members where !member.value.isLeftOut(arguments: arguments, optionalNames: optionalNames) {
            parameters[member.key] = try render(member.value)
        }
        return parameters
    }

    /// A file path from a template: a `file` value as given on the command line, anything else
    /// relative to the target file's folder.
    ///
    /// The file must be a regular file: a FIFO, device or socket would block the read or never end
    /// (`/dev/zero`), so it is refused here, before anything is sent, without opening it.
    func filePath(_ template: Template) throws(TargetBuildError) -> String {
        let path: String
        if let name = template.soloPlaceholder, case .file(let given)? = arguments[name] {
            if streamsCommandLineFiles, let stream = StreamedFile.path(given) { return stream }
            path = given
        } else {
            // The file builds this path: it must stay in the files folder whatever the values.
            path = api.resolvedPath(try renderWithoutRecording(template))
            guard RelativeFile.isInside(path, root: api.filesFolder) else {
                let folder = api.fileRoot.map { "--file-root \($0)" } ?? "the target file's folder (\(api.directory))"
                throw .outsideFolder(what: "file", path: path, folder: folder)
            }
        }
        try RegularFile.check(path)
        return path
    }

    /// Renders a download destination the file writes: a value may not add a folder, and the
    /// result must stay in the current folder.
    func downloadPath(_ template: Template) throws(TargetBuildError) -> String {
        for case .placeholder(let name, _) in template.segments {
            guard let value = arguments[name]?.text else { continue }
            if value.contains("/") || value == "." || value == ".." {
                throw .destinationValueAddsFolder(name: name, value: value)
            }
        }
        let path = try renderWithoutRecording(template)
        guard !path.hasPrefix("/"), RelativeFile.isInside(path, root: ".") else {
            throw .outsideFolder(what: "download destination", path: path, folder: "the current folder")
        }
        if let name = RelativeFile.hiddenComponent(of: path) {
            throw .hiddenDownloadDestination(path: path, name: name)
        }
        return path
    }

    /// Reads a whole file (sample files).
    func contents(ofFile path: String) throws(TargetBuildError) -> Data {
        try RegularFile.check(path)
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        return data
    }
}
