import FileIO
import PositionedYAML
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds and loads the target files of a search path into a `TargetCatalog`.
public struct TargetDiscovery: Sendable {
    /// A target file found on the search path.
    public struct SourceFile: Sendable, Hashable {
        /// The level it was found at.
        public var level: SearchPath.Level
        /// The path used to read it.
        public var path: String
        /// The path as shown to the user.
        public var displayPath: String
        /// Where it came from, as `list` names it (see `SearchPath.Location.source`).
        public var source: String
    }

    /// Where to look.
    public var searchPath: SearchPath

    /// Creates a discovery over `searchPath`.
    /// `--file-root`: the folder files a target file names must be inside, instead of its own.
    public var fileRoot: String?

    public init(searchPath: SearchPath, fileRoot: String? = nil) {
        self.fileRoot = fileRoot
        self.searchPath = searchPath
    }

    /// The files to load, in priority order: each folder scanned non-recursively for `*.yaml` and
    /// `*.yml`, sorted by name; a file reachable twice is kept once, at its first place.
    ///
    /// - Returns: the files, and warnings for `MOYA_TARGETS_PATH` entries that do not exist.
    /// - Throws: `DiscoveryError.missingTargetsPath` for a `--targets` path that does not exist.
    public func sourceFiles() throws(DiscoveryError) -> (files: [SourceFile], warnings: [Diagnostic]) {
        var files: [SourceFile] = []
        let walked = try walk(continuingBefore: { _ in true }, visit: { files.append($0) })
        return (files, walked.warnings)
    }

    /// Loads every file: the first level that defines an API name wins, later definitions are
    /// shadowed; two files defining one name at the same level are an error naming both.
    ///
    /// A file with errors still claims its name, so a broken override is reported rather than
    /// silently replaced by a lower level's file.
    ///
    /// - Parameter eachCase: when given, takes each valid case of each file as soon as it is
    ///   validated, and the catalog's APIs keep none (see ``TargetFileLoader/load(path:file:limits:fileRoot:eachCase:)``):
    ///   for commands that read each case once. What it took from a file with errors is to be discarded.
    public func discover(eachCase: ((SourceFile, CaseSpec) -> Void)? = nil) throws(DiscoveryError) -> TargetCatalog {
        try load(stoppingAfterLevelDefining: nil, eachCase: eachCase)
    }

    /// Loads files level by level only until the level that defines `name` is complete: every
    /// file of that level is loaded (so a second definition at that level is still reported, and
    /// a broken file still claims the name), later levels are not even listed.
    ///
    /// The catalog is **partial** when `name` is found: it lacks the APIs, shadowed definitions,
    /// files and diagnostics of the levels after the winner's. It answers `api(named: name)`
    /// exactly as `discover()` would, and nothing else: `validate`, `list` without an API, `check`
    /// and completion of API names need `discover()`. When no level defines `name` every level is
    /// read and the catalog is complete, so an unknown name still lists every valid one.
    public func discover(
        stoppingAfterLevelDefining name: String,
        eachCase: ((SourceFile, CaseSpec) -> Void)? = nil
    ) throws(DiscoveryError) -> TargetCatalog {
        try load(stoppingAfterLevelDefining: name, eachCase: eachCase)
    }

    /// ``discover(stoppingAfterLevelDefining:eachCase:)`` for a command that needs one case of
    /// `name` (`call`, `curl`, `request`): the catalog's APIs keep no case; each file's valid case
    /// names and its case `caseName`, if it has a valid one, come by file (display path). Files
    /// are loaded through `cache` when given (see ``LoadCache``): then an entry of another API than
    /// `name` may have no `api` though its file is valid (it claims its name, no more).
    package func discover(
        stoppingAfterLevelDefining name: String, keepingOnly caseName: String, cache: LoadCache?
    ) throws(DiscoveryError) -> (TargetCatalog, [String: TargetFileLoader.KeptCase]) {
        var kept: [String: TargetFileLoader.KeptCase] = [:]
        let catalog = try load(stoppingAfterLevelDefining: name) { file in
            let (result, keptCase) = TargetFileLoader.load(
                path: file.path, file: file.displayPath, fileRoot: fileRoot, keepingOnly: caseName, ofAPI: name,
                cache: cache)
            kept[file.displayPath] = keptCase
            return result
        }
        return (catalog, kept)
    }

    /// The one loading loop of `discover()` and `discover(stoppingAfterLevelDefining:)`.
    private func load(
        stoppingAfterLevelDefining wanted: String?,
        eachCase: ((SourceFile, CaseSpec) -> Void)?
    ) throws(DiscoveryError) -> TargetCatalog {
        try load(stoppingAfterLevelDefining: wanted) { file in
            TargetFileLoader.load(
                path: file.path, file: file.displayPath, fileRoot: fileRoot,
                eachCase: eachCase.map { each in { each(file, $0) } })
        }
    }

    /// The loading loop, each file loaded by `loadFile`.
    private func load(
        stoppingAfterLevelDefining wanted: String?,
        loadFile: (SourceFile) -> TargetFileLoadResult
    ) throws(DiscoveryError) -> TargetCatalog {
        var catalog = TargetCatalog(entries: [], shadowed: [], diagnostics: [], sources: [:], files: [])
        let walked = try walk(
            continuingBefore: { remaining in
                // Once `wanted` has a winner, only another location at the winner's level can still
                // change the answer (a same-level duplicate); `SearchPath.standard` lists levels in
                // order, so this stops right after the winner's level.
                guard let wanted, let winner = catalog.entries.first(where: { $0.name == wanted }) else { return true }
                return remaining.contains { $0.level == winner.level }
            },
            visit: { file in
                catalog.files.append(file.displayPath)
                let result = loadFile(file)
                catalog.diagnostics += result.diagnostics
                catalog.sources[file.displayPath] = result.sourceLines
                // A file with errors claims the name its `api:` line gives even when it cannot be
                // parsed, and is found by its file name's too (`TargetCatalog.api(named:)`).
                let scanned = result.hasErrors ? result.sourceLines.flatMap(APINameScan.name(in:)) : nil
                guard let name = scanned ?? result.apiName else { return }
                var entry = TargetCatalog.Entry(
                    name: name, file: file.displayPath, level: file.level, source: file.source,
                    api: result.api, caseCount: result.caseCount)
                if result.hasErrors {
                    entry.possibleNames = Array(Set([name] + (result.apiName.map { [$0] } ?? []))).sorted()
                }
                guard let winner = catalog.entries.first(where: { $0.name == name }) else {
                    catalog.entries.append(entry)
                    return
                }
                if winner.level == file.level {
                    catalog.diagnostics.append(
                        Diagnostic(
                            .error, file: file.displayPath, mark: nil,
                            message:
                                "API '\(name)' is defined twice at the same level (\(file.source)): \(winner.file) and \(file.displayPath); rename one with 'api:'"
                        ))
                }
                var shadowed = entry
                shadowed.shadowedBy = winner.file
                catalog.shadowed.append(shadowed)
            })
        catalog.diagnostics = (walked.warnings + catalog.diagnostics).sorted()
        catalog.searched = walked.searched
        return catalog
    }

    /// Walks the search path location by location, handing each file not met before to `visit`
    /// in priority order. Before a location is looked at (not even checked for existence),
    /// `continuingBefore` is given it and the locations after it; `false` ends the walk there.
    ///
    /// - Returns: warnings for the `MOYA_TARGETS` entries walked that do not exist, and every
    ///   location walked with whether it existed (from the check made anyway: nothing more is
    ///   looked at to say where a name was searched for).
    /// - Throws: `DiscoveryError.missingTargetsPath` for a `--targets` path that does not exist.
    private func walk(
        continuingBefore: (ArraySlice<SearchPath.Location>) -> Bool, visit: (SourceFile) -> Void
    ) throws(DiscoveryError) -> (warnings: [Diagnostic], searched: [TargetCatalog.SearchedLocation]) {
        var warnings: [Diagnostic] = []
        var searched: [TargetCatalog.SearchedLocation] = []
        var seen = Set<String>()
        let locations = searchPath.locations
        for index in locations.indices {
            guard continuingBefore(locations[index...]) else { break }
            let location = locations[index]
            let found = try files(at: location)
            searched.append(TargetCatalog.SearchedLocation(location: location, exists: found != nil))
            guard let found else {
                if location.level == .environmentVariable {
                    warnings.append(
                        Diagnostic(
                            .warning, file: location.displayPath, mark: nil,
                            message: "\(location.source) names '\(location.displayPath)', which does not exist; skipped"
                        ))
                }
                continue
            }
            for file in found where seen.insert(Self.canonicalPath(file.path)).inserted {
                visit(file)
            }
        }
        return (warnings, searched)
    }

    /// The target files of one location: the file itself, or a folder's `*.yaml` and `*.yml`
    /// files (not recursively), sorted by name; `nil` when it does not exist.
    ///
    /// - Throws: `DiscoveryError.missingTargetsPath` when it must exist (`--targets`) and does not.
    private func files(at location: SearchPath.Location) throws(DiscoveryError) -> [SourceFile]? {
        // stat(2) after links, as `FileManager.fileExists(atPath:isDirectory:)` does.
        var info = stat()
        guard stat(location.path, &info) == 0 else {
            if location.mustExist { throw .missingTargetsPath(location.displayPath) }
            return nil
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return [
                SourceFile(
                    level: location.level, path: location.path, displayPath: location.displayPath,
                    source: location.source)
            ]
        }
        let names = (FolderListing.names(in: location.path) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted()
        return names.compactMap { name in
            let path = SearchPath.join(location.path, name)
            // Only regular files (after links): a FIFO named *.yaml would block the loader.
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            return SourceFile(
                level: location.level, path: path, displayPath: SearchPath.join(location.displayPath, name),
                source: location.source)
        }
    }

    /// The path with symbolic links and `.`/`..` resolved, to recognise one file reached twice.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
