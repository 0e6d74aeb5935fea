import OrderedJSON
import PathResolution
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one rule for files a target file names (`dataFile`, uploads, multipart files, sample files,
/// `file` values and their defaults): relative to the target file's folder, and a readable file.
package enum RelativeFile {
    /// Why a path names no file that can be read.
    package enum Problem: Equatable {
        /// Nothing is there.
        case missing
        /// A folder, or a file this process may not read.
        case notReadable
    }

    /// `path` resolved against `folder` unless it is absolute; `.` leaves it as written.
    package static func resolve(_ path: String, against folder: String) -> String {
        path.hasPrefix("/") || folder == "." ? path : folder + "/" + path
    }

    /// What keeps the (resolved) `path` from being read as a file, or `nil` when it can be.
    package static func problem(at path: String) -> Problem? {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        guard !isDirectory, FileManager.default.isReadableFile(atPath: path) else { return .notReadable }
        return nil
    }
}

extension RelativeFile {
    /// Whether `path` is `root` or inside it, once both are resolved the way the system will open
    /// them: symbolic links followed for the part that exists, `.` and `..` applied to the rest,
    /// relative paths taken from the current folder. A link inside `root` that points outside is
    /// outside.
    package static func isInside(_ path: String, root: String) -> Bool {
        CanonicalPath.isInside(path, root)
    }

    /// The first component of a relative path that is hidden (starts with `.`, but is not `.` or
    /// `..`), or `nil`: a download destination a file names may not be a dotfile or go into a
    /// dot-folder (`.profile`, `.ssh/authorized_keys`, `.config/moya/targets/x.yaml`).
    package static func hiddenComponent(of path: String) -> String? {
        path.split(separator: "/").first { $0.hasPrefix(".") && $0 != "." && $0 != ".." }.map(String.init)
    }
}

/// The questions validating a target file asks of the file system, with their answers: every file
/// a target file names goes through ``RelativeFile``, and a validator given a `FileProbes` records
/// each question there as it asks it. Validation is otherwise a function of the file's tree, its
/// folder, `--file-root` and the current folder alone, so a tree validated before gives the same
/// result again while every recorded question gets the same answer (``stillHold(_:)``): the load
/// cache then checks only the case a call asks for (TargetSpec's `LoadCache`).
public final class FileProbes: Sendable {
    /// One question and the answer it got.
    package struct Probe: Equatable, Sendable {
        /// What was asked.
        package enum Kind: UInt8, Sendable {
            /// ``RelativeFile/problem(at:)`` of `path`.
            case problem = 0
            /// ``RelativeFile/isInside(_:root:)`` of `path` and `root`.
            case inside = 1
            /// ``RelativeFile/jsonProblem(at:)`` of `path`.
            case json = 2
        }

        package var kind: Kind
        package var path: String
        /// The folder of an `inside` question; empty for the others.
        package var root: String
        /// The answer, as text: what ``RelativeFile`` says, spelled by ``answer(to:)``.
        package var answer: String

        package init(kind: Kind, path: String, root: String, answer: String) {
            self.kind = kind
            self.path = path
            self.root = root
            self.answer = answer
        }
    }

    private struct Asked {
        var probes: [Probe] = []
        var seen: Set<String> = []
    }

    // A validation asks from one thread; the lock makes a binder that holds this Sendable.
    private let asked = Mutex(Asked())

    package init() {}

    /// The questions asked so far, in order (a question asked twice is kept once).
    package var probes: [Probe] { asked.withLock { $0.probes } }

    fileprivate func record(_ kind: Probe.Kind, _ path: String, _ root: String, _ answer: String) {
        asked.withLock { asked in
            guard asked.seen.insert(String(kind.rawValue) + "\0" + path + "\0" + root).inserted else { return }
            asked.probes.append(Probe(kind: kind, path: path, root: root, answer: answer))
        }
    }

    /// Whether each of `probes`, asked again now, gets the answer it got.
    package static func stillHold(_ probes: [Probe]) -> Bool {
        probes.allSatisfy { answer(to: $0) == $0.answer }
    }

    /// The answer `probe`'s question gets now.
    static func answer(to probe: Probe) -> String {
        switch probe.kind {
        case .problem: return spell(RelativeFile.problem(at: probe.path))
        case .inside: return RelativeFile.isInside(probe.path, root: probe.root) ? "y" : "n"
        case .json: return spell(RelativeFile.jsonProblem(at: probe.path))
        }
    }

    fileprivate static func spell(_ problem: RelativeFile.Problem?) -> String {
        switch problem {
        case nil: return ""
        case .missing: return "missing"
        case .notReadable: return "unreadable"
        }
    }

    fileprivate static func spell(_ problem: RelativeFile.JSONProblem?) -> String {
        switch problem {
        case nil: return ""
        case .unreadable: return "unreadable"
        case .invalid(let error): return "\(error.line):\(error.column): \(error.message)"
        }
    }
}

extension RelativeFile {
    /// Why a file that should hold JSON (a sample file ending in `.json`) does not.
    package enum JSONProblem {
        /// It cannot be read.
        case unreadable
        /// It is not valid JSON.
        case invalid(JSONParseError)
    }

    /// What keeps the file at `path` from being read as JSON, or `nil` when it is valid JSON.
    package static func jsonProblem(at path: String) -> JSONProblem? {
        guard let data = FileManager.default.contents(atPath: path) else { return .unreadable }
        do {
            _ = try JSONValue(parsing: data)
            return nil
        } catch {
            return .invalid(error)
        }
    }

    /// ``problem(at:)``, recorded in `probes` when given.
    package static func problem(at path: String, probes: FileProbes?) -> Problem? {
        let problem = problem(at: path)
        probes?.record(.problem, path, "", FileProbes.spell(problem))
        return problem
    }

    /// ``isInside(_:root:)``, recorded in `probes` when given.
    package static func isInside(_ path: String, root: String, probes: FileProbes?) -> Bool {
        let inside = isInside(path, root: root)
        probes?.record(.inside, path, root, inside ? "y" : "n")
        return inside
    }

    /// ``jsonProblem(at:)``, recorded in `probes` when given.
    package static func jsonProblem(at path: String, probes: FileProbes?) -> JSONProblem? {
        let problem = jsonProblem(at: path)
        probes?.record(.json, path, "", FileProbes.spell(problem))
        return problem
    }
}
