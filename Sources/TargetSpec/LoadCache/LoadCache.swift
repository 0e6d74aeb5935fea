import CBuildID
import ContentDigest
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
#endif

/// What validating a target file gave, kept between runs so that a command that needs one case
/// (`call`, `curl`, `request`) does not parse and validate an unchanged file again: in
/// `$XDG_CACHE_HOME/moya-cli/loaded/` (`~/.cache/moya-cli/loaded/`), one private file per target
/// file (FileIO's ``PrivateFile``: folder 0700, files 0600 written whole, only believed when
/// this user's own). `MOYA_NO_LOAD_CACHE=1` turns it off.
///
/// An entry is believed only when all that the verdict depends on is as it was:
/// - this very binary (its device, inode, size and modification time), the current folder, the
///   file's path as read and as shown, and `--file-root`: all part of the entry's identity;
/// - the file itself, by its settled ``FileFingerprint`` (an entry is only written for a file
///   that last changed at least two seconds before: a later change must show in its times);
/// - every question validation asked the file system (``FileProbe``: samples there, readable, JSON,
///   inside the files folder), asked again.
///
/// Only files without errors are kept (their warnings with them); `validate` and the commands that
/// read every case always load the files. An entry that cannot be read, does not decode or does not
/// match is a miss: the file is loaded, and the entry written again.
package struct LoadCache: Sendable {
    /// The folder of the entries.
    package let folder: String
    /// This binary, as entries name it.
    let binary: String

    /// The entry format; a change of it (or of the model: the binary is in the identity) is a miss.
    static let magic = Array("moya-cli load cache 1\n".utf8)
    /// The most an entry may hold.
    static let entryLimit = 64 << 20
    /// Entries kept; beyond it the oldest go when an entry is written.
    static let entryCount = 256

    /// The cache of this user, or `nil` when it is turned off or there is no cache folder.
    package static func standard(environment: [String: String]) -> LoadCache? {
        if let off = environment["MOYA_NO_LOAD_CACHE"], !off.isEmpty, off != "0" { return nil }
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.cache"
        } else {
            return nil
        }
        return LoadCache(folder: base + "/moya-cli/loaded")
    }

    /// A cache in `folder`; `nil` when this binary cannot be told from another.
    package init?(folder: String) {
        guard let binary = Self.buildID() else { return nil }
        self.folder = folder
        self.binary = binary
    }

    /// The running program's GNU build ID (the linker's hash of what it linked, in its
    /// `NT_GNU_BUILD_ID` note; see `moya_build_id`). Without one, `/proc/self/exe`'s file
    /// fingerprint.
    static func buildID() -> String? {
        var found = [UInt8](repeating: 0, count: 64)
        let length = found.withUnsafeMutableBufferPointer { moya_build_id($0.baseAddress, $0.count) }
        found.removeSubrange(Int(length)...)
        if !found.isEmpty {
            let digits = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = []
            for byte in found {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: hex, as: UTF8.self)
        }
        return FileFingerprint.of("/proc/self/exe")?.text
    }

    /// What a one-case load of a file needs to know of it.
    struct Key {
        /// Everything the entry's contents depend on besides the file and the probes.
        var identity: String
        /// The entry's file name: the identity's SHA-256.
        var name: String

        init(binary: String, path: String, file: String, fileRoot: String?) {
            var directory = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&directory, directory.count) != nil ? String(cString: directory) : ""
            identity = binary + "\0" + cwd + "\0" + path + "\0" + file + "\0" + (fileRoot ?? "\u{1}")
            var hash = SHA256()
            hash.update(identity.utf8)
            let digits = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = []
            hex.reserveCapacity(64)
            for byte in hash.finalize() {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            name = String(decoding: hex, as: UTF8.self)
        }
    }

    /// The first part of an entry.
    struct Header: Codable {
        var identity: String
        var file: FileFingerprint
        var probes: [FileProbe]
        var apiName: String?
        var diagnostics: [Diagnostic]
        var caseCount: Int
        /// The API with no case.
        var api: APISpec
        /// Each valid case's name, and where its bytes are after the header.
        var cases: [CaseEntry]
    }

    struct CaseEntry: Codable {
        var name: String
        var offset: Int
        var length: Int
    }

    /// What an entry holds of a file.
    struct Hit {
        var header: Header
        /// The bytes of the cases.
        var cases: ArraySlice<UInt8>

        /// The case `name`, or `nil` when there is none or it does not decode.
        func decodeCase(named name: String) -> CaseSpec?? {
            guard let entry = header.cases.first(where: { $0.name == name }) else { return .some(nil) }
            guard entry.offset >= 0, entry.length >= 0, entry.offset <= cases.count - entry.length else { return nil }
            let start = cases.startIndex + entry.offset
            return (try? CompactDecoder().decode(CaseSpec.self, from: Array(cases[start..<(start + entry.length)])))
                .map { .some($0) }
        }
    }

    func key(path: String, file: String, fileRoot: String?) -> Key {
        Key(binary: binary, path: path, file: file, fileRoot: fileRoot)
    }

    /// The entry of `key`, if it is there and still holds for the file at `path`.
    func lookUp(_ key: Key, path: String) -> Hit? {
        guard let fingerprint = FileFingerprint.of(path) else { return nil }
        guard case .contents(let data) = PrivateFile.read(folder + "/" + key.name, limit: Self.entryLimit) else {
            return nil
        }
        let bytes = [UInt8](data)
        let magic = Self.magic
        guard bytes.count >= magic.count + 4, bytes[0..<magic.count].elementsEqual(magic) else { return nil }
        var length = 0
        for index in 0..<4 { length |= Int(bytes[magic.count + index]) << (8 * index) }
        let start = magic.count + 4
        guard length <= bytes.count - start,
            let header = try? CompactDecoder().decode(Header.self, from: Array(bytes[start..<(start + length)])),
            header.identity == key.identity, header.file == fingerprint,
            header.probes.allSatisfy(\.stillHolds)
        else { return nil }
        return Hit(header: header, cases: bytes[(start + length)...])
    }

    /// Writes the entry of `key` for a file that loaded without errors.
    func store(
        _ key: Key, file: FileFingerprint, result: TargetFileLoadResult, api: APISpec, cases: [(String, [UInt8])]
    ) {
        var api = api
        api.cases = []
        var entries: [CaseEntry] = []
        var offset = 0
        for (name, bytes) in cases {
            entries.append(CaseEntry(name: name, offset: offset, length: bytes.count))
            offset += bytes.count
        }
        let header = Header(
            identity: key.identity, file: file, probes: Array(result.fileProbes), apiName: result.apiName,
            diagnostics: result.diagnostics, caseCount: result.caseCount, api: api, cases: entries)
        guard let headerBytes = try? CompactEncoder().encode(header) else { return }
        var bytes = Self.magic
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: headerBytes.count >> (8 * index))) }
        bytes += headerBytes
        for (_, caseBytes) in cases { bytes += caseBytes }
        guard bytes.count <= Self.entryLimit, (try? PrivateFile.ensureFolder(folder)) != nil else { return }
        try? PrivateFile.write(Data(bytes), named: key.name, in: folder)
        prune()
    }

    /// Removes the oldest entries beyond ``entryCount`` (each binary built writes its own).
    func prune() {
        guard let names = FolderListing.names(in: folder), names.count > Self.entryCount else { return }
        var dated: [(Int64, String)] = []
        for name in names where !name.hasPrefix(".") {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            dated.append((Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec), name))
        }
        dated.sort { $0.0 < $1.0 }
        for (_, name) in dated.dropLast(Self.entryCount) { unlink(folder + "/" + name) }
    }
}
