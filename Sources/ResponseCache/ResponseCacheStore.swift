import ContentDigest
import FileIO
import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP cache on disk: private files in the user's cache folder (`$XDG_CACHE_HOME/moya` or
/// `~/.cache/moya`, mode 0700; files 0600, written whole through `PrivateFile`), keyed by method,
/// URL and the request's values of the header fields the answer's `Vary` names (RFC 9111 §4.1):
/// - one file per method and URL: the answer, or for an answer that varies, the latest variant,
///   which also names the set's token and the file of each variant (at most ``variantLimit``);
/// - one file per variant of an answer that varies, named by the method, the URL, the token and
///   the varied values, so `Accept: text/csv` and `Accept: application/json` are both kept.
/// A new `Vary` list, or an unsafe request's success (``remove(method:url:)``), starts a new set
/// and removes the old one's files: an invalidated variant is never found again.
/// A file not to believe (a symbolic link, another user's, cut short, altered) is no entry: the
/// request goes to the server and its answer replaces the file.
package struct ResponseCacheStore: Sendable {
    /// The largest entry kept: a body larger is not stored.
    package static let entryLimit = 64 << 20
    /// The most variants kept of one URL's answer; the oldest goes first.
    package static let variantLimit = 16

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

    /// The file name of a variant: the SHA-256 of the method, the URL, the set's token and each
    /// varied name with its value (an absent field apart from an empty one).
    package static func variantFileName(
        method: String, url: String, generation: String, varied: [(name: String, value: String?)]
    ) -> String {
        var key = "\(method) \(url)\n\(generation)"
        for item in varied { key += "\n" + item.name + (item.value.map { "=" + $0 } ?? "") }
        return SHA256.hexDigest(of: Array(key.utf8)) + ".response"
    }

    /// Whether `name` is a name this store makes: 64 hexadecimal digits and `.response`.
    package static func isEntryFileName(_ name: String) -> Bool {
        let digits = name.utf8.dropLast(".response".utf8.count)
        return name.hasSuffix(".response") && digits.count == 64
            && digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The stored entry for `method` and `url` that may answer a request with `requestFields`:
    /// the URL's own entry when it varies on nothing or its variant matches, else the variant the
    /// request's values name, if there is one to believe.
    package func load(method: String, url: String, requestFields: HTTPFields) -> CacheEntry? {
        guard let primary = load(method: method, url: url) else { return nil }
        if CachePolicy.matchesVary(primary, requestFields: requestFields) { return primary }
        guard let generation = primary.variantGeneration, !primary.varied.isEmpty else { return nil }
        let name = Self.variantFileName(
            method: method, url: url, generation: generation,
            varied: primary.varied.map { item in
                (item.name, HTTPField.Name(item.name).flatMap { requestFields[$0] })
            })
        guard primary.variantFiles.contains(name), let entry = loadFile(name, method: method, url: url),
            CachePolicy.matchesVary(entry, requestFields: requestFields)
        else { return nil }
        return entry
    }

    /// The URL's own entry for `method` and `url`, if there is one to believe.
    package func load(method: String, url: String) -> CacheEntry? {
        loadFile(Self.fileName(method: method, url: url), method: method, url: url)
    }

    private func loadFile(_ name: String, method: String, url: String) -> CacheEntry? {
        guard usableFolder() else { return nil }
        let path = folder + "/" + name
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

    /// Stores `entry` (replacing the one for its method and URL, and for an answer that varies,
    /// the one for its varied values); a failure is only warned of.
    package func save(_ entry: CacheEntry) {
        guard entry.body.count <= Self.entryLimit, usableFolder() else { return }
        var entry = entry
        let old = load(method: entry.method, url: entry.url)
        let sameSet = old.map { old in old.varied.map(\.name) == entry.varied.map(\.name) } ?? false
        let generation = sameSet ? old?.variantGeneration : nil
        var files = generation == nil ? [] : old?.variantFiles ?? []
        let stale = Set(old?.variantFiles ?? []).subtracting(files)
        entry.variantGeneration = nil
        entry.variantFiles = []
        if !entry.varied.isEmpty {
            let token = generation ?? Self.newGeneration()
            let name = Self.variantFileName(
                method: entry.method, url: entry.url, generation: token, varied: entry.varied)
            files.removeAll { $0 == name }
            files.append(name)
            while files.count > Self.variantLimit { unlink(folder + "/" + files.removeFirst()) }
            write(entry, named: name)
            entry.variantGeneration = token
            entry.variantFiles = files
        }
        for name in stale { unlink(folder + "/" + name) }
        write(entry, named: Self.fileName(method: entry.method, url: entry.url))
    }

    /// A token no earlier set of variants had.
    private static func newGeneration() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
    }

    private func write(_ entry: CacheEntry, named name: String) {
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

    /// Removes the entries for `method` and `url`, every variant's too (a request that changed
    /// the resource).
    package func remove(method: String, url: String) {
        for name in load(method: method, url: url)?.variantFiles ?? [] { unlink(folder + "/" + name) }
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
