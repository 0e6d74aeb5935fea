import MoyaKit
import TargetModel
import TargetSpec
import TextSafety

/// Finds and loads every target file, printing diagnostics to stderr.
struct CatalogLoader {
    var options: TargetOptions
    var environment: [String: String] = ProcessEnvironment.current

    /// Whether diagnostics on stderr are colored.
    var colorsDiagnostics: Bool {
        Terminal.usesColor(on: StandardStream.error.fileDescriptor, disabled: options.noColor, environment: environment)
    }

    /// The places target files are looked for: `--targets`, `MOYA_TARGETS`, `./targets`, the
    /// user's configuration folder, the share folder.
    var searchPath: SearchPath {
        SearchPath.standard(
            explicitPaths: options.targetPaths,
            environment: environment,
            currentDirectory: ProcessEnvironment.currentDirectory,
            executablePath: Self.executablePath
        )
    }

    /// Discovers the target files and loads them all: the complete catalog, for `validate`, `list`
    /// without an API, `check` and completion.
    ///
    /// - Throws: `CommandFailure` (exit 64) for a `--targets` path that does not exist.
    ///
    /// - Parameter eachCase: takes each valid case as it is loaded, and the catalog's APIs keep
    ///   none (`validate` and `list` read each case once); see `TargetDiscovery.discover(eachCase:)`.
    func load(eachCase: ((TargetDiscovery.SourceFile, CaseSpec) -> Void)? = nil) throws -> TargetCatalog {
        try load(stoppingAfterLevelDefining: nil, eachCase: eachCase)
    }

    /// Loads every level, or only up to the one that defines `name`, turning a missing
    /// `--targets` path into `CommandFailure` (exit 64).
    private func load(
        stoppingAfterLevelDefining name: String?,
        eachCase: ((TargetDiscovery.SourceFile, CaseSpec) -> Void)?
    ) throws -> TargetCatalog {
        do {
            let discovery = TargetDiscovery(searchPath: searchPath, fileRoot: options.fileRoot)
            let catalog =
                if let name {
                    try discovery.discover(stoppingAfterLevelDefining: name, eachCase: eachCase)
                } else {
                    try discovery.discover(eachCase: eachCase)
                }
            KeptUntilExit.keep(catalog)
            return catalog
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    /// Prints the catalog's diagnostics (errors and warnings) to stderr.
    ///
    /// Cases without a sample are counted in one line per file when there are several (`validate`
    /// lists them), so that what else is said is not lost among them.
    /// With `files`, only those files' diagnostics.
    func printDiagnostics(of catalog: TargetCatalog, files: Set<String>? = nil) {
        let diagnostics =
            files.map { files in catalog.diagnostics.filter { files.contains($0.file) } } ?? catalog.diagnostics
        guard !diagnostics.isEmpty else { return }
        var counts: [String: Int] = [:]
        for diagnostic in diagnostics where TargetFileValidator.isNoSampleWarning(diagnostic) {
            counts[diagnostic.file, default: 0] += 1
        }
        let shown = diagnostics.filter {
            !(TargetFileValidator.isNoSampleWarning($0) && counts[$0.file, default: 0] > 1)
        }
        var text = DiagnosticRenderer.render(shown, source: { catalog.sources[$0] }, colored: colorsDiagnostics)
        for file in catalog.files where counts[file, default: 0] > 1 {
            text +=
                DisplayText.escaped(TargetFileValidator.noSampleSummary(file: file, count: counts[file] ?? 0)) + "\n"
        }
        StandardStream.error.write(text)
    }

    /// Loads the catalog up to the level that defines `name` and returns that API; a file with
    /// errors is reported whole (exit 65). The returned catalog is partial (see
    /// `TargetDiscovery.discover(stoppingAfterLevelDefining:)`): use it only for this API's file.
    ///
    /// With `eachCase`, the API keeps no case: each valid case of each file read is handed to it
    /// instead, as it is loaded (`list API`).
    func api(
        named name: String,
        eachCase: ((TargetDiscovery.SourceFile, CaseSpec) -> Void)? = nil
    ) throws -> (TargetCatalog, APISpec) {
        try api(named: name) { discovery throws(DiscoveryError) in
            try discovery.discover(stoppingAfterLevelDefining: name, eachCase: eachCase)
        }
    }

    /// The API `name` from the catalog `discover` loads up to the level defining it.
    private func api(
        named name: String, discover: (TargetDiscovery) throws(DiscoveryError) -> TargetCatalog
    ) throws -> (TargetCatalog, APISpec) {
        let catalog: TargetCatalog
        do {
            catalog = try discover(TargetDiscovery(searchPath: searchPath, fileRoot: options.fileRoot))
            KeptUntilExit.keep(catalog)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
        do {
            let api = try catalog.api(named: name)
            return (catalog, api)
        } catch let error {
            if case .invalidAPI(_, let file) = error {
                StandardStream.error.write(
                    DiagnosticRenderer.render(
                        catalog.diagnostics.filter { $0.file == file }, source: { catalog.sources[$0] },
                        colored: colorsDiagnostics))
                throw CommandFailure(.invalidTargetFile, error.description)
            }
            if case .duplicateAPI = error {
                throw CommandFailure(.invalidTargetFile, error.description)
            }
            throw CommandFailure(.usage, error.description)
        }
    }

    /// The API `name` with only its case `caseName` (`call` and `curl` need one): every case of
    /// the files read is validated as usual, then dropped unless it is that one, so calling one
    /// case of a large API holds one case, not all of them. Fails as ``api(named:eachCase:)``
    /// does, and with a usage error (exit 64) naming the valid cases when there is no such case.
    ///
    /// Unchanged files that loaded without errors before are read from the load cache
    /// (`LoadCache`: the same result, without parsing and validating them again).
    func api(named name: String, keepingOnly caseName: String) throws -> APISpec {
        var kept: [String: TargetFileLoader.KeptCase] = [:]
        var (_, api) = try api(named: name) { discovery throws(DiscoveryError) in
            let (catalog, keptCases) = try discovery.discover(
                stoppingAfterLevelDefining: name, keepingOnly: caseName,
                cache: LoadCache.standard(environment: environment))
            kept = keptCases
            KeptUntilExit.keep(keptCases)
            return catalog
        }
        guard let spec = kept[api.file]?.spec else {
            throw CommandFailure(.usage, api.unknownCase(caseName, among: kept[api.file]?.names ?? []).description)
        }
        api.cases = [spec]
        return api
    }

    /// The running binary, for the share folder next to it (`<prefix>/bin/../share/moya-cli/targets`).
    static var executablePath: String? {
        ProcessEnvironment.executablePath
    }
}
