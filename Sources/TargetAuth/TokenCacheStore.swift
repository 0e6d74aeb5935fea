import FileIO
import MoyaKit
import OrderedJSON

#if canImport(Glibc)
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// OAuth 2.0 tokens kept between runs, one file per `OAuth2CacheKey`, in a private folder:
/// `$XDG_CACHE_HOME/moya-cli/` (`~/.cache/moya-cli/`).
///
/// The folder is made with mode 0700, each file with 0600, written to a temporary file and renamed
/// so a reader never sees half a token. A file is only believed when it is a regular file (not a
/// symlink, FIFO or device), owned by this user, readable by nobody else and small: anything else
/// could be another user's plant or leak the token, so it is ignored (with a warning) and the token
/// fetched again.
package struct TokenCacheStore: Sendable {
    /// The folder the files live in.
    package let folder: String
    /// Where problems with the cache go (they never stop a request: the token is fetched instead).
    package let warn: @Sendable (String) -> Void

    /// The most a cache file may hold.
    static let fileLimit = 64 * 1024

    /// Creates a store in `folder`.
    package init(folder: String, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.folder = folder
        self.warn = warn
    }

    /// `$XDG_CACHE_HOME/moya-cli` when that is an absolute path (the XDG rule), else
    /// `$HOME/.cache/moya-cli`; `nil` without either.
    package static func defaultFolder(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/moya-cli" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/moya-cli" }
        return nil
    }

    /// The path of `key`'s file.
    package func path(for key: OAuth2CacheKey) -> String {
        folder + "/" + key.fileName
    }

    /// The token cached for `key`, or `nil` when there is none or the file cannot be trusted.
    package func load(_ key: OAuth2CacheKey) -> OAuth2Token? {
        let path = path(for: key)
        switch read(path) {
        case .missing:
            return nil
        case .refused(let reason):
            warn("ignoring the cached token \(path): \(reason); fetching a new one")
            return nil
        case .contents(let data):
            guard let entry = try? CachedToken(data: data), entry.key == key else {
                warn(
                    "ignoring the cached token \(path): it is not a token file of this moya-cli for this API; fetching a new one"
                )
                return nil
            }
            return entry.token
        }
    }

    /// Keeps `token` for `key`; a failure is a warning (the token still serves this run).
    package func save(_ token: OAuth2Token, for key: OAuth2CacheKey) {
        guard ensureFolder() else { return }
        do throws(PrivateFile.WriteProblem) {
            try PrivateFile.write(CachedToken(key: key, token: token).data, named: key.fileName, in: folder)
        } catch {
            switch error {
            case .cannotCreate(let reason): warn("cannot cache the token in \(folder): \(reason)")
            case .cannotWrite(let reason): warn("cannot cache the token in \(path(for: key)): \(reason)")
            }
        }
    }

    /// Removes `key`'s file, if any.
    package func remove(_ key: OAuth2CacheKey) {
        unlink(path(for: key))
    }

    /// Removes every cached token of the API `apiName`; returns the paths removed.
    @discardableResult
    package func removeAll(apiName: String) -> [String] {
        // Only in this user's own folder: not through a symbolic link to someone else's.
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid() else { return [] }
        var removed: [String] = []
        for name in fileNames(apiName: apiName) {
            let path = folder + "/" + name
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The names of the API's cache files.
    package func fileNames(apiName: String) -> [String] {
        let prefix = OAuth2CacheKey.filePrefix(apiName: apiName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        // The prefix of `api` is also that of `api-two`: the rest must be the digest alone.
        return names.filter { name in
            guard name.hasPrefix(prefix), name.hasSuffix(".json") else { return false }
            let digest = name.dropFirst(prefix.count).dropLast(".json".count)
            return digest.count == 32 && digest.allSatisfy(\.isHexDigit)
        }.sorted()
    }

    // MARK: - Files

    /// Reads `path` if it is a file only this user can read (`PrivateFile.read`).
    func read(_ path: String) -> PrivateFile.ReadOutcome {
        PrivateFile.read(path, limit: Self.fileLimit)
    }

    /// Makes the folder (mode 0700) if needed and checks it is this user's own directory, private.
    /// Returns whether tokens may be written there.
    func ensureFolder() -> Bool {
        do throws(PrivateFile.FolderProblem) {
            try PrivateFile.ensureFolder(folder)
            return true
        } catch {
            switch error {
            case .unusable(let reason): warn("cannot use the token cache \(folder): \(reason)")
            case .cannotCreate(let reason): warn("cannot create the token cache \(folder): \(reason)")
            case .notADirectory: warn("not caching the token: \(folder) is not a directory (a symbolic link or a file)")
            case .otherUsersFolder: warn("not caching the token: \(folder) belongs to another user")
            case .cannotMakePrivate:
                warn("not caching the token: \(folder) is open to other users and cannot be made private")
            }
            return false
        }
    }
}

/// A cache file's contents: the key it was fetched for (checked on reading) and the token.
struct CachedToken {
    var key: OAuth2CacheKey
    var token: OAuth2Token

    /// 2: the key holds the client secret's digest and the origin (version 1 files are ignored).
    static let version = 2

    init(key: OAuth2CacheKey, token: OAuth2Token) {
        self.key = key
        self.token = token
    }

    struct Malformed: Error {}

    init(data: Data) throws {
        let json: JSONValue
        do { json = try JSONValue(parsing: data) } catch { throw Malformed() }
        guard json["version"]?.intValue == Self.version,
            let api = json["api"]?.stringValue, let tokenURL = json["tokenURL"]?.stringValue,
            let clientID = json["clientId"]?.stringValue,
            let scopes = json["scopes"]?.arrayValue?.compactMap(\.stringValue),
            let secretDigest = json["clientSecretSHA256"]?.stringValue, let origin = json["origin"]?.stringValue,
            let accessToken = json["accessToken"]?.stringValue, TokenResponse.isHeaderSafe(accessToken)
        else { throw Malformed() }
        key = OAuth2CacheKey(
            apiName: api, tokenURL: tokenURL, clientID: clientID, clientSecretDigest: secretDigest, scopes: scopes,
            origin: origin)
        token = OAuth2Token(
            accessToken: accessToken, tokenType: "Bearer",
            expiresAt: json["expiresAt"]?.doubleValue.map { Date(timeIntervalSince1970: $0) },
            scope: json["scope"]?.stringValue, refreshToken: json["refreshToken"]?.stringValue)
    }

    var data: Data {
        var members: [(String, JSONValue)] = [
            ("version", .int(Self.version)), ("api", .string(key.apiName)), ("tokenURL", .string(key.tokenURL)),
            ("clientId", .string(key.clientID)), ("clientSecretSHA256", .string(key.clientSecretDigest)),
            ("scopes", .array(key.scopes.map(JSONValue.string))), ("origin", .string(key.origin)),
            ("accessToken", .string(token.accessToken)), ("tokenType", .string(token.tokenType))
        ]
        if let expiresAt = token.expiresAt {
            // Kept within what an Int holds, whatever the date (a token is never given centuries).
            let seconds = min(max(expiresAt.timeIntervalSince1970, 0), 1e12)
            members.append(("expiresAt", .int(Int(seconds))))
        }
        if let scope = token.scope { members.append(("scope", .string(scope))) }
        if let refreshToken = token.refreshToken { members.append(("refreshToken", .string(refreshToken))) }
        return JSONValue.object(members).serialized()
    }
}
