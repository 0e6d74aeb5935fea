import PositionedYAML

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a target file's node tree into an `APISpec`, reporting every problem with its position.
///
/// It never stops at the first problem: each section is checked on its own and problems are
/// collected as `Diagnostic`s. The sections live in `TargetFileValidator+<Section>.swift`.
public struct TargetFileValidator {
    /// The file, as diagnostics name it.
    public let file: String
    /// The folder relative paths in the file are taken from.
    public let directory: String
    /// Every problem found so far.
    public internal(set) var diagnostics: [Diagnostic] = []
    /// The diagnostics found so far, to report each only once.
    private var reported: Set<Diagnostic> = []
    /// The API's name (from `api:` or the file name), known even when the file has errors.
    public internal(set) var apiName: String?

    /// Where a placeholder is used in a case: what it may name depends on it.
    enum PlaceholderRole {
        /// Path, headers, task strings: counts as a use; `file` values are not allowed.
        case request
        /// A file path in the task (upload, dataFile, multipart `file`): counts as a use.
        case filePath
        /// Samples: does not count as a use; anything goes.
        case sample
    }

    /// A placeholder found while reading a case.
    struct PlaceholderUse {
        var name: String
        var mark: Mark
        var role: PlaceholderRole
        /// Names the position in messages: "a path", "a task".
        var positionName: String
        /// What the placeholder alone builds, when it is alone in something that can be left out:
        /// only there may an optional value go (and a list value, except in a multipart part).
        var lonePlace: LonePlace?
    }

    /// What a lone placeholder builds.
    enum LonePlace {
        /// A parameter, query member, or a JSON member or element.
        case json
        /// A header.
        case header
        /// A multipart part.
        case multipart
    }

    /// The placeholders of the case being read.
    var placeholderUses: [PlaceholderUse] = []
    /// The process variables the file's `${VAR}` references read.
    var environmentVariableNames: Set<String> = []
    /// Values of the case being read that were declared but are invalid (already reported): their
    /// placeholders are not reported again as unknown.
    var invalidValueNames: Set<String> = []
    /// When set, each valid case is handed to it as soon as it is validated instead of being kept:
    /// the API's `cases` is then empty (see ``caseCount``). A case read before the API's `auth`
    /// comes as read: its `auth: basic` may name a scheme the API defines after it. What it was
    /// given is to be discarded when the file turns out to have errors.
    public var caseHandler: ((CaseSpec) -> Void)?
    /// The valid cases read, kept or handed on.
    public internal(set) var caseCount = 0
    /// The cases validated while the file loaded, if it was loaded that way (see
    /// `TargetFileValidator+StreamedCases.swift`).
    var streamedCases: StreamedCases?

    /// Where each case's `pagination:` (its cursor `param`, when it has one) is written, by case
    /// name, for the checks that need every case (`checkPagingAndChains`).
    var paginationMarks: [String: Mark] = [:]
    /// The `{NAME}`s in chained examples' `with:`, checked against the captures once every case is read.
    var pendingChainPlaceholders: [(caseName: String, number: Int, names: [String], mark: Mark)] = []
    /// Cases whose validation or captures expect a 3xx: warned about once the API's `redirects:`
    /// is known, if their redirects are followed (`checkRedirectExpectations`).
    var redirectExpectations: [RedirectExpectation] = []
    /// The cursor `param` of the pagination being read.
    var cursorParameterMarks: [(name: String, mark: Mark)] = []

    /// The folder given with `--file-root`, if any: files the target file names must be inside
    /// it instead of inside the file's own folder.
    public var fileRoot: String?

    /// `false` for a validation of some cases of a file that was validated whole before, with no
    /// error (the load cache): the checks between cases (chains, pagination, redirects expected),
    /// which need every case, are left out; the earlier validation made them.
    package var checksAcrossCases = true
    /// Where the questions this validation asks of the file system are recorded, if anywhere (see
    /// ``FileProbes``): every check of a file the target file names passes it on.
    public var probes: FileProbes?

    /// Where files the target file names must be: `--file-root`, else the file's folder.
    var filesFolder: String { fileRoot ?? directory }

    /// Creates a validator for `file`; `directory` defaults to the file's folder.
    public init(file: String, directory: String? = nil, fileRoot: String? = nil) {
        self.file = file
        self.directory = directory ?? APISpec.folder(of: file)
        self.fileRoot = fileRoot
    }

    /// Validates a document; returns the API only when no error was found (warnings allowed).
    public mutating func validate(_ root: Node) -> APISpec? {
        var api = readAPI(root)
        api?.environmentVariables = environmentVariableNames.sorted()
        diagnostics.sort()
        return diagnostics.contains { $0.severity == .error } ? nil : api
    }

    // MARK: - Reporting

    mutating func error(_ message: String, at mark: Mark?) {
        report(Diagnostic(.error, file: file, mark: mark, message: message))
    }

    mutating func warning(_ message: String, at mark: Mark?) {
        report(Diagnostic(.warning, file: file, mark: mark, message: message))
    }

    /// Records `diagnostic` once: a node that aliases bring in several times is checked at each
    /// place, and would otherwise repeat its problems, all at the anchored node's mark.
    private mutating func report(_ diagnostic: Diagnostic) {
        guard reported.insert(diagnostic).inserted else { return }
        diagnostics.append(diagnostic)
    }

    // MARK: - Paths

    /// `path` relative to the target file's folder, unless absolute.
    func resolvedPath(_ path: String) -> String {
        RelativeFile.resolve(path, against: directory)
    }

    /// Reports a path (dataFile, upload, multipart file, sample file) that leaves the files
    /// folder — absolute, or with `..` or a link leading out — or, when literal, names no readable
    /// file. Returns whether the file is fine.
    @discardableResult
    mutating func checkFileExists(_ template: Template, what: String) -> Bool {
        guard checkInsideFilesFolder(template, what: what) else { return false }
        guard let path = template.literalText else { return true }
        switch RelativeFile.problem(at: resolvedPath(path), probes: probes) {
        case nil:
            return true
        case .missing:
            error(
                "\(what) '\(path)' does not exist (paths are relative to the target file's folder)", at: template.mark)
        case .notReadable:
            error("\(what) '\(path)' is not a readable file", at: template.mark)
        }
        return false
    }

    /// Reports a file path whose text (placeholders taken as a plain name) leaves the files folder.
    /// A lone placeholder is a `file` value given on the command line, which may be anywhere.
    mutating func checkInsideFilesFolder(_ template: Template, what: String) -> Bool {
        guard template.soloPlaceholder == nil else { return true }
        let path = template.representativeText
        guard !RelativeFile.isInside(resolvedPath(path), root: filesFolder, probes: probes) else { return true }
        let folder = fileRoot.map { "--file-root \($0)" } ?? "the target file's folder (\(directory))"
        error(
            "\(what) '\(template.source)' is outside \(folder); files a target file names must be inside it"
                + (fileRoot == nil ? " (or pass --file-root DIR)" : ""), at: template.mark)
        return false
    }

    /// Reports a download destination that is absolute, or whose text (placeholders taken as a
    /// plain name) leaves the current folder by `..` or a link leading out.
    mutating func checkDownloadDestination(_ template: Template) {
        let path = template.representativeText
        if path.hasPrefix("/") || !RelativeFile.isInside(path, root: ".", probes: probes) {
            error(
                "download destination '\(template.source)' leaves the current folder (absolute, or through '..'); a target file may only write "
                    + "below the folder moya-cli runs in (give --output FILE to write elsewhere)", at: template.mark)
        } else if let name = RelativeFile.hiddenComponent(of: path) {
            error(
                "download destination '\(template.source)' names '\(name)'; a target file may not write dotfiles or into dot-folders "
                    + "(.profile, .ssh, .config); give --output FILE to write there", at: template.mark)
        }
    }

    // MARK: - Names

    /// `[A-Za-z][A-Za-z0-9_-]*`: API and environment names.
    public static func isAPIName(_ name: String) -> Bool {
        isName(name, firstAllowsUnderscore: false, allowsDash: true)
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: case, value and variable names.
    public static func isIdentifier(_ name: String) -> Bool {
        isName(name, firstAllowsUnderscore: true, allowsDash: false)
    }

    /// Every accepted character is ASCII, so the bytes decide: a byte of a multi-byte character
    /// is never accepted, as the character itself would not be.
    private static func isName(_ name: String, firstAllowsUnderscore: Bool, allowsDash: Bool) -> Bool {
        name.withUTF8Bytes { bytes in
            guard let first = bytes.first else { return false }
            switch first {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): break
            case UInt8(ascii: "_") where firstAllowsUnderscore: break
            default: return false
            }
            return bytes.dropFirst().allSatisfy {
                switch $0 {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"):
                    true
                case UInt8(ascii: "-"): allowsDash
                default: false
                }
            }
        }
    }

    /// RFC 9110 token characters: header names and auth schemes.
    public static func isToken(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            !bytes.isEmpty
                && bytes.allSatisfy {
                    switch Unicode.Scalar($0) {
                    case "A"..."Z", "a"..."z", "0"..."9", "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_",
                        "`", "|", "~":
                        true
                    default: false
                    }
                }
        }
    }
}
