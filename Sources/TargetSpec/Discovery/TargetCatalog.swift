import PositionedYAML
import TargetModel

/// Every API the search path defines: the winners, the shadowed definitions and every problem.
public struct TargetCatalog: Sendable {
    /// One file's API definition.
    public struct Entry: Sendable {
        /// The API's name.
        public var name: String
        /// The file, as shown to the user.
        public var file: String
        /// The level it was found at.
        public var level: SearchPath.Level
        /// Where it came from, as `list` names it (`SearchPath.Location.source`).
        public var source: String
        /// The API, or `nil` when the file has errors (see `diagnostics`), or when a partial catalog
        /// read a valid file of another API from the load cache
        /// (`discover(stoppingAfterLevelDefining:keepingOnly:cache:)`): such a catalog answers
        /// `api(named:)` for its API only.
        public var api: APISpec?
        /// For a shadowed entry, the file that won.
        public var shadowedBy: String?
        /// The valid cases of the file (the API's own, or those handed on while loading).
        public var caseCount = 0
        /// For a file with errors: every name it may have meant to define (its `api:` line's,
        /// read even when the file cannot be parsed, and its file name's).
        public var possibleNames: [String] = []
    }

    /// The winning definition of each API name, in discovery order.
    public var entries: [Entry]
    /// Definitions hidden by a higher level (or by the first file at the same level), for `list`.
    public var shadowed: [Entry]
    /// Every problem of every file, and same-level duplicates, sorted.
    public var diagnostics: [Diagnostic]
    /// Each loaded file's lines, by displayed name, to render diagnostics.
    public var sources: [String: SourceLines]
    /// Every file loaded, as the user would name it, in discovery order.
    public var files: [String] = []
    /// Every location looked at, in order: all of them unless loading stopped at a found API.
    public var searched: [SearchedLocation] = []

    /// A location looked at, and whether it existed.
    public struct SearchedLocation: Sendable, Hashable {
        /// The location.
        public var location: SearchPath.Location
        /// Whether it existed.
        public var exists: Bool
    }

    /// The locations looked at, as messages name them: `./targets (missing), flag (--targets), ...`.
    public var searchedDescription: String {
        searched.map { $0.location.searchedDescription(exists: $0.exists) }.joined(separator: ", ")
    }

    /// Whether some diagnostic is an error (exit 65).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The API names, in discovery order.
    public var apiNames: [String] { entries.map(\.name) }

    /// The API named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownAPI` with a did-you-mean, or `.invalidAPI` when its file has errors
    ///   (or a file with errors that may define it: see `Entry.possibleNames`).
    public func api(named name: String) throws(SpecLookupError) -> APISpec {
        guard let entry = entries.first(where: { $0.name == name }) else {
            // Not found, but a file with errors may be the one meant: its errors say more.
            if let broken = (entries + shadowed).first(where: { $0.api == nil && $0.possibleNames.contains(name) }) {
                throw .invalidAPI(name, file: broken.file)
            }
            let names = apiNames
            throw .unknownAPI(
                name, suggestion: Suggestion.closest(to: name, in: names), available: names,
                searched: searchedDescription)
        }
        guard let api = entry.api else { throw .invalidAPI(name, file: entry.file) }
        if let twin = shadowed.first(where: { $0.name == name && $0.level == entry.level }) {
            throw .duplicateAPI(name, files: [entry.file, twin.file])
        }
        return api
    }

    /// The diagnostics as `file:line:col: error: message` with source lines and carets.
    public func renderedDiagnostics(colored: Bool = false) -> String {
        DiagnosticRenderer.render(diagnostics, source: { sources[$0] }, colored: colored)
    }
}
