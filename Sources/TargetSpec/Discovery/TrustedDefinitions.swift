import FileIO
import PathResolution
import PositionedYAML

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The trusted files that define an API of a given name, found without loading them: for the
/// warning when an untrusted file (a cloned repository's `./targets`) shadows one of the user's
/// own (`TargetDiscovery`: the first level wins, and `./targets` comes before
/// `~/.config/moya/targets`).
public enum TrustedDefinitions {
    /// The files among the trusted places (`TargetTrust.declaredPaths`: the user's targets folder,
    /// `MOYA_TRUSTED_TARGETS`) and the files trusted by content whose API is `name` (by their
    /// `api:` line, else their file name), other than `except`; resolved paths.
    public static func files(
        definingAPI name: String, trust: TargetTrust, environment: [String: String], except: String
    )
        -> [String]
    {
        let excluded = CanonicalPath.resolved(except) ?? except
        var candidates: [String] = []
        for place in TargetTrust.declaredPaths(environment: environment) {
            guard let resolved = CanonicalPath.resolved(place) else { continue }
            var info = stat()
            guard stat(resolved, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                let names = (FolderListing.names(in: resolved) ?? [])
                    .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                candidates += names.map { resolved + "/" + $0 }
            } else {
                candidates.append(resolved)
            }
        }
        candidates += trust.grants.grants.map(\.path)
        var found: [String] = []
        for candidate in candidates {
            guard let path = CanonicalPath.resolved(candidate), path != excluded, !found.contains(path),
                apiName(of: path) == name, trust.trusts(path)
            else { continue }
            found.append(path)
        }
        return found
    }

    /// The API name of the file at `path`: its `api:` line (read from its first 64 KiB, without
    /// parsing), else its file name without the extension.
    static func apiName(of path: String) -> String? {
        guard let bytes = try? SafeFile.read(path, limit: .max, mustBePrivate: false, prefix: 64 * 1024) else {
            return nil
        }
        if let name = APINameScan.name(in: SourceLines(bytes: bytes)) { return name }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
    }
}
