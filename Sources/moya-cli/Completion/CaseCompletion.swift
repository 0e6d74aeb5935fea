import ArgumentParser
import MoyaKit
import TargetModel
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Shell completion of API names, cases and values from the target files found when TAB is
/// pressed, not when the completion script was generated: the `API CASE [VALUES...] [--name
/// value]` words of `call`/`curl`, the APIs of `check` and its `--only`/`--skip` patterns.
///
/// The generated scripts call `moya-cli ---completion call -- positional@0 ...` with the words on
/// the command line; ArgumentParser hands them to `candidates`.
struct CaseCompletion {
    /// What the command line says before the word being completed.
    struct Context {
        /// The words the subcommand did not recognize as its own options (`call`, `curl`), or
        /// the APIs named (`check`), in order.
        var words: [String]
        /// `--targets` paths given on the command line.
        var targetPaths: [String]
    }

    /// What the completed word is.
    enum Subject {
        /// `API CASE [VALUES...] [--name value]` of `call` and `curl`.
        case invocation
        /// One more API name (`check`'s APIs).
        case apiName
        /// A case pattern of `--only`/`--skip`: `API.CASE`, or `CASE` when one API is named.
        case casePattern
        /// An environment of the APIs named (`--env`).
        case environmentName
        /// A sample of the case named (`--sample`).
        case sampleName
        /// An auth scheme of the API named (`auth --scheme`).
        case schemeName
        /// `[API] METHOD PATH|URL` of `request` (see `RequestCompletion`).
        case request
    }

    /// The completion kind for an option whose value names something of the API or case on the
    /// command line (`--env`, `--sample`): the words are searched for API and case names.
    static func optionValue(_ subject: Subject, in subcommands: Set<String>) -> CompletionKind {
        kind(of: subject, in: subcommands) { _ in nil }
    }

    /// The subcommands whose words are completed.
    var subcommands: Set<String> = ["call", "curl"]
    var subject = Subject.invocation
    /// Parses the words before the one completed with the subcommand's own parser.
    var parseContext: @Sendable ([String]) -> Context?

    /// The completion kind for the `words` argument of `call` and `curl`.
    static func kind(parsing parse: @escaping @Sendable ([String]) -> Context?) -> CompletionKind {
        kind(of: .invocation, in: ["call", "curl"], parsing: parse)
    }

    /// ``kind(parsing:)`` with `Command`'s own parser; `context` reads its words and `--targets`.
    static func kind<Command: ParsableCommand>(
        of command: Command.Type, _ context: @escaping @Sendable (Command) -> Context
    ) -> CompletionKind {
        kind { words in (try? Command.parse(words)).map(context) }
    }

    /// The completion kind for `subject` in the words after one of `subcommands`.
    static func kind(
        of subject: Subject, in subcommands: Set<String>,
        parsing parse: @escaping @Sendable ([String]) -> Context?
    ) -> CompletionKind {
        .custom { words, index, prefix in
            let completion = CaseCompletion(subcommands: subcommands, subject: subject, parseContext: parse)
            return ShellWord.formatted(
                completion.candidates(commandLine: words, index: index, prefix: prefix),
                for: CompletionShell.requesting)
        }
    }

    /// The candidates for `commandLine[index]`, of which `prefix` is typed so far; the words as
    /// the shell passed them, quotes included.
    func candidates(commandLine: [String], index: Int, prefix typed: String) -> [String] {
        guard index > 0, index <= commandLine.count,
            let subcommand = commandLine[..<index].firstIndex(where: subcommands.contains)
        else { return [] }
        let home = ProcessEnvironment.current["HOME"]
        var before = commandLine[(subcommand + 1)..<index].map { ShellWord.unquoted($0, home: home) }
        if subject != .invocation && subject != .apiName && subject != .request, before.last?.hasPrefix("-") == true {
            // The option whose value is completed: without its value the words would not parse.
            before.removeLast()
        }
        let prefix = ShellWord.unquoted(typed)
        let context = parseContext(before) ?? Context(words: before, targetPaths: Self.targetPaths(in: before))
        var options = TargetOptions()
        options.targetPaths = context.targetPaths
        let loader = CatalogLoader(options: options, environment: ProcessEnvironment.current)
        guard let catalog = try? loader.load() else { return [] }
        switch subject {
        case .invocation: return invocationCandidates(words: context.words, catalog: catalog, prefix: prefix)
        case .apiName: return Self.matching(catalog.apiNames.filter { !context.words.contains($0) }, prefix)
        case .casePattern: return Self.casePatterns(apiNames: context.words, catalog: catalog, prefix: prefix)
        case .environmentName:
            let named = context.words.compactMap { try? catalog.api(named: $0) }
            let apis = named.isEmpty ? catalog.entries.compactMap(\.api) : named
            return Self.matching(Array(Set(apis.flatMap { $0.environments.map(\.name) })).sorted(), prefix)
        case .sampleName:
            guard let apiIndex = context.words.firstIndex(where: { (try? catalog.api(named: $0)) != nil }),
                let api = try? catalog.api(named: context.words[apiIndex]), apiIndex + 1 < context.words.count,
                let spec = try? api.case(named: context.words[apiIndex + 1])
            else { return [] }
            return Self.matching(spec.samples.map(\.name), prefix)
        case .schemeName:
            guard let api = context.words.lazy.compactMap({ try? catalog.api(named: $0) }).first else { return [] }
            return Self.matching(api.authSchemes.map(\.name), prefix)
        case .request: return RequestCompletion.candidates(words: context.words, catalog: catalog, prefix: prefix)
        }
    }

    /// The next word of `API CASE [VALUES...] [--name value]`.
    func invocationCandidates(words: [String], catalog: TargetCatalog, prefix: String) -> [String] {
        var words = words
        // `--name` just before the cursor: the value of `name` is being typed.
        var pendingName: String?
        if let last = words.last, last.hasPrefix("--"), last.count > 2, !last.contains("=") {
            pendingName = String(last.dropFirst(2))
            words.removeLast()
        }
        guard let invocation = try? CaseInvocation(words: words) else { return [] }
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

    /// `API.CASE` for every case of the APIs named (of every API when none is); just `CASE` when
    /// exactly one is named, as `--only` matches a bare case name in every API checked.
    static func casePatterns(apiNames: [String], catalog: TargetCatalog, prefix: String) -> [String] {
        let named = apiNames.filter(catalog.apiNames.contains)
        let apis = (named.isEmpty ? catalog.apiNames : named).compactMap { try? catalog.api(named: $0) }
        let patterns = apis.flatMap { api in
            api.cases.map { named.count == 1 ? $0.name : api.name + "." + $0.name }
        }
        return matching(patterns, prefix)
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

    /// The `--targets PATH` and `--targets=PATH` values in `words`, for when the subcommand's
    /// parser refused them (e.g. an option still missing its value).
    static func targetPaths(in words: [String]) -> [String] {
        let names = TargetOptions.targetPaths.names
        var paths: [String] = []
        var words = words[...]
        while let word = words.popFirst() {
            if names.contains(word), let path = words.popFirst() {
                paths.append(path)
            } else if let name = names.first(where: { word.hasPrefix($0 + "=") }) {
                paths.append(String(word.dropFirst(name.count + 1)))
            }
        }
        return paths
    }
}
