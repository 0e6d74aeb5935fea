import PositionedYAML
import TargetModel
import TextSafety

/// What `moya-cli import curl` is asked for.
package struct CurlImportOptions: Sendable {
    /// The API's name: names the file's `api` and the secrets' variables (`MOYA_<API>_<HEADER>`).
    package var apiName: String
    /// The first command's case; the others get it followed by 2, 3, … (skipping taken names).
    package var caseName: String
    /// `--only N`: the commands to import, counting from 1; empty: all.
    package var only: [Int] = []
    /// The folder the files a command names (`-d @file`) must be in.
    package var folder: String

    package init(apiName: String, caseName: String, only: [Int] = [], folder: String) {
        self.apiName = apiName
        self.caseName = caseName
        self.only = only
        self.folder = folder
    }
}

/// The requests of some curl commands, read and named: to become a new target file
/// (``targetFileText(header:)``) or cases added to one.
package struct CurlImport: Sendable {
    /// The requests, each with its case name, in command order.
    package var requests: [(name: String, request: ImportedRequest)]
    /// The first request's origin: a new file's base URL; a request to another origin gets its
    /// own case `baseURL`.
    package var origin: String
    package var options: CurlImportOptions

    /// The notes, each with its case, in order.
    package var notes: [RequestImportNote] {
        requests.flatMap { named in
            named.request.notes.map { RequestImportNote(caseName: named.name, place: $0.place, message: $0.message) }
        }
    }
}

/// Reads curl command lines (a browser's "Copy as cURL") into cases; see moya-cli-import(1).
package enum CurlImporter {
    /// The most command text read: a browser's copy of one request is rarely over a few KiB.
    package static let maximumInputSize = 16 << 20

    /// Reads every command in `bytes` and makes its request, named; `taken`: case names to skip
    /// when naming (those of the file the cases are added to).
    /// - Throws: the first problem, with its place (exit 65).
    package static func read(_ bytes: [UInt8], options: CurlImportOptions, taken: Set<String> = [])
        throws(RequestImportError) -> CurlImport
    {
        guard bytes.count <= maximumInputSize else {
            throw RequestImportError("the text is \(bytes.count) bytes; at most \(maximumInputSize >> 20) MiB is read")
        }
        let lines = try ShellWordsReader.commands(in: bytes)
        guard !lines.isEmpty else { throw RequestImportError("there is no curl command in the text") }
        if let missing = options.only.first(where: { $0 < 1 || $0 > lines.count }) {
            throw RequestImportError("--only \(missing): there are \(lines.count) commands")
        }
        let builder = CurlRequestBuilder(files: ReferencedFiles(folder: options.folder))
        var requests: [(name: String, request: ImportedRequest)] = []
        var used = taken
        var suffix = 1
        for (offset, line) in lines.enumerated() where options.only.isEmpty || options.only.contains(offset + 1) {
            let request = try builder.request(from: try CurlCommand(line))
            // The first is named by --case (a taken name is refused when the case is added);
            // the others by --case and the next number not taken.
            var name = options.caseName
            if !requests.isEmpty {
                repeat {
                    suffix += 1
                    name = options.caseName + "\(suffix)"
                } while used.contains(name)
            }
            used.insert(name)
            requests.append((name, request))
        }
        return CurlImport(requests: requests, origin: requests[0].request.url.origin, options: options)
    }
}

extension CurlImport {
    /// The cases for a file whose API is `apiName` and whose base URL has the origin `apiOrigin`
    /// (`nil`: the first request's) and the path `basePath`.
    package func cases(
        apiName: String, sensitiveHeaders: Set<String> = [], basePath: String = "", apiOrigin: String? = nil,
        apiHasAuth: Bool = false
    ) throws(RequestImportError) -> [ImportedCase] {
        var cases: [ImportedCase] = []
        for (name, request) in requests {
            cases.append(
                try request.importedCase(
                    named: name, apiName: apiName, sensitiveHeaders: sensitiveHeaders, basePath: basePath,
                    apiOrigin: apiOrigin ?? origin, apiHasAuth: apiHasAuth, checkableOffline: true))
        }
        return cases
    }

    /// A new target file: `api`, `baseURL` (the first request's origin), the cases (one sent
    /// elsewhere with its own `baseURL`).
    package func targetFileText(header: [String]) throws(RequestImportError) -> (text: String, cases: [ImportedCase]) {
        let cases = try cases(apiName: options.apiName)
        let root = [
            YAMLText.Entry("api", .string(options.apiName)),
            YAMLText.Entry("baseURL", .string(NewCase.literal(origin))),
            YAMLText.Entry("cases", .map(cases.map { YAMLText.Entry($0.name, .map($0.members)) }))
        ]
        let text = YAMLText.render(root, header: header)
        try TargetFileBudget.check(text, cases: cases.count, advice: "import fewer commands at a time with --only N")
        return (text, cases)
    }
}

/// What a target file may be (the loader's limits): an import that would make a larger one is
/// refused before anything is written, rather than writing a file no command can load.
package enum TargetFileBudget {
    package static func check(_ text: String, cases: Int, advice: String) throws(RequestImportError) {
        let limits = YAMLLimits.default
        guard text.utf8.count <= limits.maximumFileSize, cases <= limits.maximumCases else {
            throw RequestImportError(
                "the target file would be \(text.utf8.count) bytes with \(cases) cases, over the \(limits.maximumFileSize >> 20) MiB and \(limits.maximumCases) cases a target file may have; nothing was written: \(advice)"
            )
        }
    }
}
