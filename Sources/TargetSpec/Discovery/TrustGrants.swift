import ContentDigest
import PathResolution

#if canImport(Glibc)
import Glibc
#endif

/// Trust granted to target files by their content (`moya-cli trust`), as direnv's `allow` and
/// mise's `trust`: each grant is a file's real path (links resolved) and the SHA-256 of its bytes
/// when the user granted it. A file whose bytes differ now (a `git pull`, an edit) is untrusted
/// again until the user looks at it and grants it again.
///
/// Kept in the user's state folder (`$XDG_STATE_HOME/moya/trust`, else
/// `~/.local/state/moya/trust`), one grant a line, `DIGEST PATH`, the path percent-escaped (`%`,
/// control characters and line breaks), so any path is one line. The file is the user's alone: it
/// is read only when it is a regular file (not a link, FIFO or device) owned by the user and
/// writable by nobody else, in a folder likewise; written whole to a temporary file (0600) and
/// renamed over it.
public struct TrustGrants: Sendable, Equatable {
    /// One grant.
    public struct Grant: Sendable, Hashable {
        /// The file's real path.
        public var path: String
        /// The SHA-256 of its bytes when granted, in hexadecimal.
        public var digest: String
    }

    /// The grants, in the order they were made.
    public private(set) var grants: [Grant] = []

    /// No grants.
    public init() {}

    /// The store's path for `environment`: `$XDG_STATE_HOME/moya/trust`, else
    /// `$HOME/.local/state/moya/trust`; `nil` without an absolute either.
    public static func storePath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/moya/trust" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/moya/trust" }
        return nil
    }

    /// The grant of the file whose real path is `path`.
    public func grant(for path: String) -> Grant? {
        grants.last { $0.path == path }
    }

    /// Grants `path` (a real path) as its bytes are now (`digest`), replacing an older grant.
    public mutating func record(path: String, digest: String) {
        grants.removeAll { $0.path == path }
        grants.append(Grant(path: path, digest: digest))
    }

    /// Removes the grants of `path` and, when it is a folder, of the files under it; the paths removed.
    @discardableResult
    public mutating func revoke(_ path: String) -> [String] {
        let removed = grants.filter { $0.path == path || CanonicalPath.isInside($0.path, path) }.map(\.path)
        grants.removeAll { removed.contains($0.path) }
        return removed
    }

    /// The SHA-256 of the regular file at `path`, in hexadecimal; `nil` when it cannot be read.
    public static func digest(ofFileAt path: String) -> String? {
        guard let bytes = try? SafeFile.read(path, limit: Self.maximumTargetFileSize, mustBePrivate: false) else {
            return nil
        }
        return SHA256.hexDigest(of: bytes)
    }

    /// Target files larger than this are not hashed (the loader refuses them anyway).
    static let maximumTargetFileSize = 64 * 1024 * 1024

    /// The store's text.
    var text: String {
        "# moya-cli trust: target files trusted by their content (SHA-256, then the real path).\n"
            + "# Written by `moya-cli trust`; a file whose bytes changed is no longer trusted.\n"
            + grants.map { "\($0.digest) \(Self.escaped($0.path))\n" }.joined()
    }

    /// Grants from the store's text; lines that are not grants are skipped.
    init(text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].utf8.count == 64, parts[0].utf8.allSatisfy(Self.isHexDigit),
                let path = Self.unescaped(String(parts[1])), path.hasPrefix("/")
            else { continue }
            record(path: path, digest: String(parts[0]))
        }
    }

    /// The grants in the store at `path`; none when it does not exist.
    ///
    /// - Throws: `TrustStoreError` when it is not a private regular file (a link, a FIFO, another
    ///   user's, writable by others), or cannot be read.
    public static func load(from path: String) throws(TrustStoreError) -> TrustGrants {
        let bytes: [UInt8]
        do {
            bytes = try SafeFile.read(path, limit: 16 * 1024 * 1024, mustBePrivate: true)
        } catch .missing {
            return TrustGrants()
        } catch {
            throw TrustStoreError(path: path, reason: error.description)
        }
        return TrustGrants(text: String(decoding: bytes, as: UTF8.self))
    }

    /// Writes the grants to `path` whole: its folders made (0700) when missing, a temporary file
    /// (0600) written, synced and renamed over it.
    ///
    /// - Throws: `TrustStoreError` when the file or its folder is not the user's alone, or the
    ///   write fails.
    public func save(to path: String) throws(TrustStoreError) {
        do {
            try SafeFile.replace(path, with: Array(text.utf8))
        } catch {
            throw TrustStoreError(path: path, reason: error.description)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// `%`, control characters and DEL percent-escaped: one line per path.
    static func escaped(_ path: String) -> String {
        var bytes: [UInt8] = []
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte < 0x20 || byte == 0x7F {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func unescaped(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let end = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex),
                let value = UInt8(String(decoding: utf8[index..<end], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
            index = end
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
