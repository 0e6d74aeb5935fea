import PositionedYAML
import TargetModel

/// What `moya-cli import openapi` is asked for.
package struct OpenAPIImportOptions: Sendable {
    /// The API name the user chose (`--api`, or the output file's name); it also prefixes the
    /// credentials' variables. `nil`: the name comes from the spec's `info.title`, and the
    /// variables' prefix is `MOYA_` and that name, so a spec's text alone never names a
    /// well-known variable (a title `AWS` does not make `AWS_SECRET_ACCESS_KEY`).
    package var apiName: String?
    /// `--only`: tags, operation ids, or path globs (starting with `/`; `*` matches within a
    /// segment, `**` across segments). Empty: every operation.
    package var only: [String]
    /// A file, relative to the target file's folder, that exists and may stand as the example of
    /// every `file` value (so `check` covers upload cases); `nil`: such cases get no example.
    package var exampleUploadFile: String?
    /// The spec file's path, when it was read from one: `$ref`s to other files under its folder
    /// are followed. `nil` (standard input): they are noted, not followed.
    package var specPath: String?

    package init(
        apiName: String? = nil, only: [String] = [], exampleUploadFile: String? = nil, specPath: String? = nil
    ) {
        self.apiName = apiName
        self.only = only
        self.exampleUploadFile = exampleUploadFile
        self.specPath = specPath
    }
}

/// A target file made from an OpenAPI description.
package struct OpenAPIImportResult: Sendable {
    /// The target file's text.
    package var text: String
    /// The API's name.
    package var apiName: String
    /// How many cases the file has.
    package var caseCount: Int
    /// How many operations `--only` selected (all when it was not given).
    package var operationCount: Int
    /// What could not be carried over, in file order; each is also a comment in `text`.
    package var notes: [ImportNote]
    /// The environment variables the file's credentials come from, with what each is for.
    package var credentials: [(name: String, purpose: String)]
    /// Whether some case's example names `exampleUploadFile` (which must then exist).
    package var usesExampleUpload: Bool

    /// How many operations were left out entirely.
    package var skippedOperationCount: Int { notes.filter(\.skipsOperation).count }
}

/// Turns an OpenAPI 3.0/3.1 (or Swagger 2.0) document into one moya-cli target file; see
/// moya-cli-import(1) for the mapping.
package enum OpenAPIImporter {
    /// The bounds for a spec: larger than a target file's, still bounded (a 10 MB spec has a
    /// million nodes or so).
    package static let limits = YAMLLimits(
        maximumFileSize: 64 << 20, maximumDepth: 256, maximumScalarLength: 16 << 20,
        maximumNodes: 20_000_000)

    /// Imports the document in `bytes` (JSON or YAML), named `file` in messages.
    package static func importDocument(_ bytes: [UInt8], file: String, options: OpenAPIImportOptions)
        throws(OpenAPIImportError) -> OpenAPIImportResult
    {
        let node = try readDocument(bytes, file: file)
        let root = SpecNode(node: node, pointer: "#")
        let version: SpecDocument.Version
        switch SpecDocument.version(of: root) {
        case .success(let found): version = found
        case .failure(let problem): throw .invalidSpec([problem])
        }
        let document = SpecDocument(root: root, version: version)
        if let specPath = options.specPath {
            let files = SpecFiles(specPath: specPath)
            files.mainRoot = root
            document.files = files
        }
        let importer = Importer(document: document, options: options)
        let result = try importer.run()
        // A spec may be larger than a target file: what the loader would refuse is not written.
        let loaderLimits = YAMLLimits.default
        if result.text.utf8.count > loaderLimits.maximumFileSize || result.caseCount > loaderLimits.maximumCases {
            throw .outputTooLarge(bytes: result.text.utf8.count, cases: result.caseCount)
        }
        return result
    }

    /// The document's tree: JSON when it is named `.json` or starts with `{` or `[` (read by
    /// ``SpecJSONReader``, as libyaml refuses JSON keys over 1024 characters), else YAML.
    static func readDocument(_ bytes: [UInt8], file: String) throws(OpenAPIImportError) -> Node {
        var jsonFailure: SpecJSONReader.Failure?
        if SpecJSONReader.isJSON(bytes, file: file) {
            do throws(SpecJSONReader.Failure) {
                return try SpecJSONReader.read(bytes, file: file, limits: limits)
            } catch {
                // A document named .json, or over a limit, is what JSON says of it; another
                // may still be YAML in flow style (`{openapi: 3.1.0, ...}`).
                if error.isOverLimit || file.lowercased().hasSuffix(".json") { throw .unreadable([error.diagnostic]) }
                jsonFailure = error
            }
        }
        do throws(YAMLLoadError) {
            return try YAMLLoader.load(bytes, file: file, limits: limits)
        } catch {
            throw .unreadable(jsonFailure.map { [$0.diagnostic] } ?? error.diagnostics)
        }
    }
}
