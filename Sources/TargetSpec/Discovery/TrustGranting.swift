import FileIO
import PathResolution

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What `moya-cli trust` does to the grants (`TrustGrants`): the files a path names, each
/// granted as its bytes are now; revoking; listing with how each file stands.
public enum TrustGranting {
    /// A file granted now.
    public struct Granted: Sendable {
        public var path: String
        public var digest: String
    }

    /// How a grant stands now.
    public enum Standing: String, Sendable {
        /// The file's bytes are those granted.
        case trusted
        /// The file's bytes changed since: untrusted until granted again.
        case changed
        /// The file is gone (or unreadable).
        case missing
    }

    /// Why a path cannot be granted (exit 64).
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The target files `path` names, resolved: the file itself, or a folder's `*.yaml` and
    /// `*.yml` files (not its subfolders), as discovery reads a folder.
    public static func files(at path: String) throws(Refusal) -> [String] {
        guard let resolved = CanonicalPath.resolved(path) else {
            throw Refusal(description: "\(path) does not exist")
        }
        var info = stat()
        guard stat(resolved, &info) == 0 else { throw Refusal(description: "cannot inspect \(path)") }
        if info.st_mode & S_IFMT == S_IFDIR {
            let names = (FolderListing.names(in: resolved) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            let files = names.compactMap { CanonicalPath.resolved(resolved + "/" + $0) }.filter(isRegularFile)
            guard !files.isEmpty else { throw Refusal(description: "\(path) holds no *.yaml or *.yml file") }
            return files
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(description: "\(path) is not a regular file or a folder")
        }
        return [resolved]
    }

    /// Grants each file of `paths` (resolved, as `files(at:)` gives them) as its bytes are now.
    ///
    /// - Throws: `Refusal` for a file that is not the user's alone (trusting it would trust
    ///   whoever else may write it) or cannot be read.
    public static func grant(_ files: [String], in grants: inout TrustGrants) throws(Refusal) -> [Granted] {
        var granted: [Granted] = []
        for file in files {
            var info = stat()
            guard stat(file, &info) == 0 else { throw Refusal(description: "cannot inspect \(file)") }
            guard info.st_uid == geteuid() else {
                throw Refusal(description: "\(file) belongs to another user, who could change what it does")
            }
            guard info.st_mode & 0o022 == 0 else {
                throw Refusal(
                    description:
                        "\(file) is writable by other users, who could change what it does; chmod go-w it first")
            }
            guard let digest = TrustGrants.digest(ofFileAt: file) else {
                throw Refusal(description: "cannot read \(file)")
            }
            grants.record(path: file, digest: digest)
            granted.append(Granted(path: file, digest: digest))
        }
        return granted
    }

    /// The grants removed for `path` (a file, or a folder for every grant under it), which need
    /// not exist any more.
    public static func revoke(_ path: String, in grants: inout TrustGrants) -> [String] {
        grants.revoke(CanonicalPath.resolved(path) ?? CanonicalPath.of(path))
    }

    /// Every grant with how it stands now.
    public static func standings(of grants: TrustGrants) -> [(grant: TrustGrants.Grant, standing: Standing)] {
        grants.grants.map { grant in
            guard let digest = TrustGrants.digest(ofFileAt: grant.path) else { return (grant, .missing) }
            return (grant, digest == grant.digest ? .trusted : .changed)
        }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
