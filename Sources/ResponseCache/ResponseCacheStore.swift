import ContentDigest
import FileIO

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP cache on disk: one private file per method and URL in the user's cache folder
/// (`$XDG_CACHE_HOME/moya` or `~/.cache/moya`, mode 0700; files 0600, written whole through
/// `PrivateFile`). A file not to believe (a symbolic link, another user's, cut short, altered)
/// is no entry: the request goes to the server and its answer replaces the file.
package struct ResponseCacheStore: Sendable {
    /// The largest entry kept: a body larger is not stored.
    package static let entryLimit = 64 << 20

    package let folder: String
    /// Told why the cache cannot be used or a file was not believed (once per kind of problem).
    package let warn: @Sendable (String) -> Void

    package init(folder: String, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.folder = folder
        self.warn = warn
    }

    /// `$XDG_CACHE_HOME/moya`, else `$HOME/.cache/moya`; `nil` when neither is an absolute path.
    package static func defaultFolder(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/moya" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/moya" }
        return nil
    }

    /// The file name of the entry for `method` and `url`: the SHA-256 of both, so a URL never
    /// becomes a path.
    package static func fileName(method: String, url: String) -> String {
        SHA256.hexDigest(of: Array("\(method) \(url)".utf8)) + ".response"
    }

    /// The stored entry for `method` and `url`, if there is one to believe.
    package func load(method: String, url: String) -> CacheEntry? {
        guard usableFolder() else { return nil }
        let path = folder + "/" + Self.fileName(method: method, url: url)
        switch PrivateFile.read(path, limit: Self.entryLimit + 64 * 1024) {
        case .missing:
            return nil
        case .refused(let reason):
            warn("ignoring the cached response \(path): \(reason)")
            return nil
        case .contents(let data):
            guard let entry = CacheEntry(serialized: data), entry.method == method, entry.url == url else {
                warn("ignoring the cached response \(path): it is not a whole entry; it will be replaced")
                return nil
            }
            return entry
        }
    }

    /// Stores `entry` (replacing the one for its method and URL); a failure is only warned of.
    package func save(_ entry: CacheEntry) {
        guard entry.body.count <= Self.entryLimit, usableFolder() else { return }
        let name = Self.fileName(method: entry.method, url: entry.url)
        // A planted symbolic link (or anything but a file) is removed first: rename replaces the
        // link itself, never what it points to, but it must not stay to be believed.
        do throws(PrivateFile.WriteProblem) {
            try PrivateFile.write(entry.serialized(), named: name, in: folder)
        } catch {
            switch error {
            case .cannotCreate(let reason), .cannotWrite(let reason):
                warn("cannot store the response in \(folder): \(reason)")
            }
        }
    }

    /// Removes the entry for `method` and `url` (a request that changed the resource).
    package func remove(method: String, url: String) {
        unlink(folder + "/" + Self.fileName(method: method, url: url))
    }

    /// Whether the folder is this user's private directory (made if missing).
    private func usableFolder() -> Bool {
        do throws(PrivateFile.FolderProblem) {
            try PrivateFile.ensureFolder(folder)
            return true
        } catch {
            let reason =
                switch error {
                case .unusable(let text), .cannotCreate(let text): text
                case .notADirectory: "it is not a directory (a symbolic link is not followed)"
                case .otherUsersFolder: "it belongs to another user"
                case .cannotMakePrivate: "others may open it, and it cannot be made private"
                }
            warn("not using the HTTP cache in \(folder): \(reason)")
            return false
        }
    }
}
