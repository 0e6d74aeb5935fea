import ArgumentParser
import MoyaKit
import TargetSpec

/// Shell completion of `call`/`curl` words (`API CASE [VALUES...] [--name value]`), from the
/// target files found when TAB is pressed, not when the completion script was generated.
///
/// The generated scripts call `moya-cli ---completion call -- positional@0 ...` with the words on
/// the command line; ArgumentParser hands them to `candidates`.
struct CaseCompletion {
    /// What the command line says before the word being completed.
    struct Context {
        /// The words `call`/`curl` did not recognize as their own options, in order.
        var words: [String]
        /// `--targets` paths given on the command line.
        var targetPaths: [String]
    }

    /// Parses the words before the one completed with the subcommand's own parser.
    var parseContext: @Sendable ([String]) -> Context?

    /// The completion kind for the `words` argument of `call` and `curl`.
    static func kind(parsing parse: @escaping @Sendable ([String]) -> Context?) -> CompletionKind {
        .custom { words, index, prefix in
            CaseCompletion(parseContext: parse).candidates(commandLine: words, index: index, prefix: prefix)
        }
    }

    /// The candidates for `commandLine[index]`, of which `prefix` is typed so far.
    func candidates(commandLine: [String], index: Int, prefix: String) -> [String] {
        guard index > 0, index <= commandLine.count,
              let subcommand = commandLine[..<index].firstIndex(where: { $0 == "call" || $0 == "curl" }) else { return [] }
        let before = commandLine[(subcommand + 1)..<index].map(Self.unquoted)
        let context = parseContext(before) ?? Context(words: before, targetPaths: [])
        var words = context.words
        // `--name` just before the cursor: the value of `name` is being typed.
        var pendingName: String?
        if let last = words.last, last.hasPrefix("--"), last.count > 2, !last.contains("=") {
            pendingName = String(last.dropFirst(2))
            words.removeLast()
        }
        guard let invocation = try? CaseInvocation(words: words) else { return [] }
        var options = TargetOptions()
        options.targetPaths = context.targetPaths
        let loader = CatalogLoader(options: options, environment: ProcessInfo.processInfo.environment)
        guard let catalog = try? loader.load() else { return [] }

        guard let apiName = invocation.api else { return Self.matching(catalog.apiNames, prefix) }
        guard let api = try? catalog.api(named: apiName) else { return [] }
        guard let caseName = invocation.caseName else { return Self.matching(api.cases.map(\.name), prefix) }
        guard let spec = try? api.case(named: caseName) else { return [] }

        if let pendingName {
            guard let value = spec.values.first(where: { $0.name == pendingName }) else { return [] }
            return Self.candidates(for: value, prefix: prefix)
        }
        let givenByPosition = spec.values.prefix(invocation.positional.count).map(\.name)
        if prefix.hasPrefix("-") {
            let open = spec.values.filter { !givenByPosition.contains($0.name) && invocation.named[$0.name] == nil }
            return Self.matching(open.map { "--" + $0.name }, prefix)
        }
        guard invocation.positional.count < spec.values.count else { return [] }
        return Self.candidates(for: spec.values[invocation.positional.count], prefix: prefix)
    }

    /// An enumeration's cases, `true`/`false`, or file paths; nothing for free text and numbers.
    static func candidates(for value: ValueSpec, prefix: String) -> [String] {
        switch value.type {
        case .enumeration(let cases): matching(cases, prefix)
        case .bool: matching(["true", "false"], prefix)
        case .file: filePaths(matching: prefix)
        default: []
        }
    }

    /// The files and folders (with a trailing `/`) whose path starts with `prefix`.
    static func filePaths(matching prefix: String) -> [String] {
        let folder: String
        let namePrefix: String
        if let slash = prefix.lastIndex(of: "/") {
            folder = String(prefix[...slash])
            namePrefix = String(prefix[prefix.index(after: slash)...])
        } else {
            folder = ""
            namePrefix = prefix
        }
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        return names.sorted().compactMap { name in
            guard name.hasPrefix(namePrefix), !name.hasPrefix(".") || namePrefix.hasPrefix(".") else { return nil }
            var isFolder = false
            _ = manager.fileExists(atPath: folder + name, isDirectory: &isFolder)
            return folder + name + (isFolder ? "/" : "")
        }
    }

    static func matching(_ candidates: [String], _ prefix: String) -> [String] {
        candidates.filter { $0.hasPrefix(prefix) }
    }

    /// A shell word without the quotes around it (`'a b'` → `a b`); the shell passes words verbatim.
    static func unquoted(_ word: String) -> String {
        guard word.count >= 2, let first = word.first, first == "'" || first == "\"", word.last == first else { return word }
        return String(word.dropFirst().dropLast())
    }
}
