import FileIO

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--session NAME`: an API's cookies kept between runs, one private file per API and name in
/// `$XDG_STATE_HOME/moya-cli/sessions/API/NAME` (`~/.local/state/moya-cli/sessions/…`), never in a
/// target folder. Files and folders are private (`PrivateFile`: 0600 and 0700, written whole);
/// a file that is not is ignored with a warning, and the run starts without its cookies.
package struct SessionFiles: Sendable {
    /// `…/moya-cli/sessions`.
    package let root: String
    /// The session's name.
    package let name: String
    /// Where problems go (they never stop a request).
    package let warn: @Sendable (String) -> Void

    /// The most a session file may hold.
    static let fileLimit = 1 << 20
    /// The first line of a session file.
    static let header = "# moya-cli session: Netscape cookie-file lines; values are secrets"

    /// Creates the files of session `name` under `root`.
    package init(root: String, name: String, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.root = root
        self.name = name
        self.warn = warn
    }

    /// `$XDG_STATE_HOME/moya-cli/sessions` when that is an absolute path (the XDG rule), else
    /// `$HOME/.local/state/moya-cli/sessions`; `nil` without either.
    package static func defaultRoot(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/moya-cli/sessions" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/moya-cli/sessions" }
        return nil
    }

    /// Whether `name` may name a session: a letter or digit, then letters, digits, `.`, `_`, `-`
    /// (at most 64): one path segment, never `..`.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64,
            ("0"..."9").contains(first) || ("a"..."z").contains(first) || ("A"..."Z").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "_" || scalar == "-"
        }
    }

    /// The folder of `api`'s sessions.
    package func folder(of api: String) -> String {
        root + "/" + api
    }

    /// The path of this session's file for `api`.
    package func path(of api: String) -> String {
        folder(of: api) + "/" + name
    }

    /// The cookie lines kept for `api`; none when there is no file or it cannot be trusted.
    package func load(api: String) -> [String] {
        Self.lines(at: path(of: api), warn: warn)
    }

    /// The cookie lines of the session file at `path`.
    package static func lines(at path: String, warn: @Sendable (String) -> Void) -> [String] {
        switch PrivateFile.read(path, limit: fileLimit) {
        case .missing:
            return []
        case .refused(let reason):
            warn("ignoring the session \(path): \(reason)")
            return []
        case .contents(let data):
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("# ") }
        }
    }

    /// Keeps `lines` as `api`'s cookies of this session; a failure is a warning.
    package func save(api: String, lines: [String]) {
        let folder = folder(of: api)
        do throws(PrivateFile.FolderProblem) {
            // The sessions folder and the API's, each private.
            try PrivateFile.ensureFolder(root)
            try PrivateFile.ensureFolder(folder)
        } catch {
            warn("cannot keep the session in \(folder): \(Self.describe(error))")
            return
        }
        let text = ([Self.header] + lines).joined(separator: "\n") + "\n"
        do throws(PrivateFile.WriteProblem) {
            try PrivateFile.write(Data(text.utf8), named: name, in: folder)
        } catch {
            switch error {
            case .cannotCreate(let reason), .cannotWrite(let reason):
                warn("cannot keep the session in \(path(of: api)): \(reason)")
            }
        }
    }

    /// The names of `api`'s sessions under `root`, sorted; none when its folder is not this
    /// user's own directory (a symbolic link, another user's).
    package static func names(root: String, api: String) -> [String] {
        let folder = root + "/" + api
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid(),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return [] }
        return names.filter(isValidName).sorted()
    }

    /// Deletes `api`'s session `name` under `root`; returns whether there was one.
    package static func remove(root: String, api: String, name: String) -> Bool {
        guard isValidName(name), names(root: root, api: api).contains(name) else { return false }
        return unlink(root + "/" + api + "/" + name) == 0
    }

    static func describe(_ problem: PrivateFile.FolderProblem) -> String {
        switch problem {
        case .unusable(let reason), .cannotCreate(let reason): reason
        case .notADirectory: "it is not a directory (a symbolic link or a file)"
        case .otherUsersFolder: "it belongs to another user"
        case .cannotMakePrivate: "it is open to other users and cannot be made private"
        }
    }
}
