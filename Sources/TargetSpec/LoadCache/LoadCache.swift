import CBuildID
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

/// What loading a target file found, kept between runs so that a command that needs one case of
/// one API (`call`, `curl`) does not parse an unchanged file again: in
/// `$XDG_CACHE_HOME/moya-cli/loaded/` (`~/.cache/moya-cli/loaded/`), one private file per target
/// file (FileIO's ``PrivateFile``: folder 0700, files 0600 written whole, only believed when this
/// user's own). `MOYA_NO_LOAD_CACHE=1` turns it off.
///
/// An entry holds the file's tree as the streaming load left it (``LoadCacheWriter``, each case
/// with its length, so that one can be read without the others) and a summary: its API name,
/// warnings, case names, the variables its `${VAR}`s read, and the questions its validation asked
/// of the file system with their answers (``FileProbes``). For the file of the API asked for, those
/// questions are asked again: when every answer is the same, validation, a function of the tree and
/// those answers, would find what it found, so only the case asked for (and the root) is validated
/// again, from its part of the tree, and the rest is the summary's; when one differs (in a valid file
/// every answer is "there, readable, inside, JSON", so the file now has an error), every case is
/// validated again from the tree, as loading the file would (without libyaml). A file of another API gives its summary: such a file only claims its name (a partial
/// catalog answers for the API asked for alone), and its name and validity cannot change while it
/// is unchanged but for the files it names, which only make it invalid, which would change nothing
/// for the API asked for: a broken file claims the names it gave when valid.
/// An entry is believed only when all that depends on is as it was:
/// - this very binary (its GNU build ID), the current folder, the file's path as read and as
///   shown, and `--file-root`: all part of the entry's identity;
/// - the file itself, by its settled ``FileFingerprint`` (an entry is only written for a file
///   that last changed at least two seconds before: a later change must show in its times).
///
/// Only files without errors are kept; `validate` and the commands that read every case always
/// load the files. An entry that cannot be read, is damaged or does not match is a miss: the file
/// is loaded, and the entry written again.
package struct LoadCache: Sendable {
    /// The folder of the entries.
    package let folder: String
    /// This binary, as entries name it.
    let binary: String

    /// The entry format; a change of it (or of the model: the binary is in the identity) is a miss.
    static let magic = Array("moya-cli load cache 2\n".utf8)
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
        /// The entry's file name: two 64-bit FNV-1a hashes of the identity, in hex. Not a secret
        /// and not trusted: the entry holds the identity whole, and a different one is a miss.
        var name: String

        /// `nil` when the current folder cannot be named (removed, or too long a path): relative
        /// paths then say nothing of where they lead.
        init?(binary: String, path: String, file: String, fileRoot: String?) {
            var directory = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&directory, directory.count) != nil else { return nil }
            let cwd = String(cString: directory)
            identity = binary + "\0" + cwd + "\0" + path + "\0" + file + "\0" + (fileRoot ?? "\u{1}")
            var first: UInt64 = 0xcbf2_9ce4_8422_2325
            var second: UInt64 = 0x6c62_272e_07bb_0142
            for byte in identity.utf8 {
                first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 1
            }
            let digits = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = []
            hex.reserveCapacity(32)
            for value in [first, second] {
                for shift in stride(from: 60, through: 0, by: -4) {
                    hex.append(digits[Int((value >> UInt64(shift)) & 0xF)])
                }
            }
            name = String(decoding: hex, as: UTF8.self)
        }
    }

    /// What an entry says of a file without reading its tree: enough for a file of another API
    /// than the one asked for, which only claims its name.
    struct Summary {
        var identity: String
        var file: FileFingerprint
        var apiName: String?
        var diagnostics: [Diagnostic]
        var caseCount: Int
        var caseNames: [String]
        /// The process variables the file's `${VAR}` references read (the API's `environmentVariables`).
        var environmentVariables: [String]
        /// What validating the file asked of the file system, and the answers.
        var probes: [FileProbes.Probe]
    }

    /// An entry found and still true, its tree not read yet.
    struct Hit {
        var summary: Summary
        /// The entry, positioned at its tree.
        var reader: LoadCacheReader

        /// The tree as the streaming load left it, every case or only the one named `only`; `nil`
        /// when the bytes are damaged.
        func tree(only: String? = nil) -> LoadCacheReader.Tree? {
            var reader = reader
            return reader.tree(only: only)
        }

    }

    func key(path: String, file: String, fileRoot: String?) -> Key? {
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
        guard bytes.count >= magic.count, bytes[0..<magic.count].elementsEqual(magic) else { return nil }
        var reader = LoadCacheReader(bytes, at: magic.count)
        guard let identity = reader.string(), identity == key.identity, let file = reader.fingerprint(),
            file == fingerprint
        else { return nil }
        guard let apiName = reader.optionalString(), let diagnosticCount = reader.count() else { return nil }
        var diagnostics: [Diagnostic] = []
        for _ in 0..<diagnosticCount {
            guard let diagnostic = reader.diagnostic() else { return nil }
            diagnostics.append(diagnostic)
        }
        guard let caseCount = reader.count(), let caseNames = reader.strings(),
            let environmentVariables = reader.strings(), let probeCount = reader.count()
        else { return nil }
        var probes: [FileProbes.Probe] = []
        for _ in 0..<probeCount {
            guard let probe = reader.probe() else { return nil }
            probes.append(probe)
        }
        return Hit(
            summary: Summary(
                identity: identity, file: file, apiName: apiName, diagnostics: diagnostics,
                caseCount: caseCount, caseNames: caseNames, environmentVariables: environmentVariables,
                probes: probes),
            reader: reader)
    }

    /// Writes the entry of `key` for a file that loaded without errors: what it gave, and its
    /// tree (`tree`: the root as the load left it, then the count of cases handed on and each
    /// case's name and node, as ``LoadCacheWriter`` wrote them while the file loaded).
    func store(
        _ key: Key, file: FileFingerprint, result: TargetFileLoadResult, caseNames: [String],
        probes: [FileProbes.Probe],
        tree: [UInt8]
    ) {
        let writer = LoadCacheWriter(capacity: 1024 + tree.count)
        writer.raw(Self.magic)
        writer.string(key.identity)
        writer.fingerprint(file)
        writer.optionalString(result.apiName)
        writer.number(UInt64(result.diagnostics.count))
        for diagnostic in result.diagnostics { writer.diagnostic(diagnostic) }
        writer.number(UInt64(result.caseCount))
        writer.strings(caseNames)
        writer.strings(result.api?.environmentVariables ?? [])
        writer.number(UInt64(probes.count))
        for probe in probes { writer.probe(probe) }
        writer.raw(tree)
        guard writer.count <= Self.entryLimit, (try? PrivateFile.ensureFolder(folder)) != nil else { return }
        // Not synced: an entry cut by a crash does not read back, and is written again.
        try? PrivateFile.write(writer.data, named: key.name, in: folder, syncing: false)
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
