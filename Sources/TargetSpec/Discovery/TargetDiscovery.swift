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
    }

    /// Where to look.
    public var searchPath: SearchPath

    /// Creates a discovery over `searchPath`.
    public init(searchPath: SearchPath) {
        self.searchPath = searchPath
    }

    /// The files to load, in priority order: each folder scanned non-recursively for `*.yaml` and
    /// `*.yml`, sorted by name; a file reachable twice is kept once, at its first place.
    ///
    /// - Returns: the files, and warnings for `MOYA_TARGETS_PATH` entries that do not exist.
    /// - Throws: `DiscoveryError.missingTargetsPath` for a `--targets` path that does not exist.
    public func sourceFiles() throws(DiscoveryError) -> (files: [SourceFile], warnings: [Diagnostic]) {
        var files: [SourceFile] = []
        var warnings: [Diagnostic] = []
        var seen = Set<String>()
        let fileManager = FileManager.default
        for location in searchPath.locations {
            var isDirectory = false
            guard fileManager.fileExists(atPath: location.path, isDirectory: &isDirectory) else {
                if location.mustExist { throw .missingTargetsPath(location.displayPath) }
                if location.level == .environmentVariable {
                    warnings.append(Diagnostic(.warning, file: location.displayPath, mark: nil,
                                               message: "MOYA_TARGETS_PATH names '\(location.displayPath)', which does not exist; skipped"))
                }
                continue
            }
            var found: [SourceFile] = []
            if isDirectory {
                let names = ((try? fileManager.contentsOfDirectory(atPath: location.path)) ?? [])
                    .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                    .sorted()
                for name in names {
                    let path = SearchPath.join(location.path, name)
                    var isFolder = false
                    guard fileManager.fileExists(atPath: path, isDirectory: &isFolder), !isFolder else { continue }
                    found.append(SourceFile(level: location.level, path: path, displayPath: SearchPath.join(location.displayPath, name)))
                }
            } else {
                found.append(SourceFile(level: location.level, path: location.path, displayPath: location.displayPath))
            }
            for file in found where seen.insert(Self.canonicalPath(file.path)).inserted {
                files.append(file)
            }
        }
        return (files, warnings)
    }

    /// Loads every file: the first level that defines an API name wins, later definitions are
    /// shadowed; two files defining one name at the same level are an error naming both.
    ///
    /// A file with errors still claims its name, so a broken override is reported rather than
    /// silently replaced by a lower level's file.
    public func discover() throws(DiscoveryError) -> TargetCatalog {
        let (files, warnings) = try sourceFiles()
        var catalog = TargetCatalog(entries: [], shadowed: [], diagnostics: warnings, sources: [:], files: files.map(\.displayPath))
        for file in files {
            let result = TargetFileLoader.load(path: file.path, file: file.displayPath)
            catalog.diagnostics += result.diagnostics
            catalog.sources[file.displayPath] = result.sourceLines
            guard let name = result.apiName else { continue }
            let entry = TargetCatalog.Entry(name: name, file: file.displayPath, level: file.level, api: result.api)
            guard let winner = catalog.entries.first(where: { $0.name == name }) else {
                catalog.entries.append(entry)
                continue
            }
            if winner.level == file.level {
                catalog.diagnostics.append(Diagnostic(.error, file: file.displayPath, mark: nil, message:
                    "API '\(name)' is defined twice at the same level (\(file.level)): \(winner.file) and \(file.displayPath); rename one with 'api:'"))
            }
            var shadowed = entry
            shadowed.shadowedBy = winner.file
            catalog.shadowed.append(shadowed)
        }
        catalog.diagnostics.sort()
        return catalog
    }

    /// The path with symbolic links and `.`/`..` resolved, to recognise one file reached twice.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
