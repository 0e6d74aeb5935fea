import PositionedYAML

/// `pagination:` (API and case), a case's `captures:` and chained examples (`after:`/`with:`).
extension TargetFileValidator {
    static let paginationKeys = ["next", "cursor", "items"]
    static let paginationStyles = ["link"]
    /// Lower-case names shells give a meaning (zsh ties `path` to PATH, `fpath` to FPATH...).
    static let shellSpecialNames: Set<String> = [
        "path", "fpath", "cdpath", "manpath", "mailpath", "module_path", "fignore", "psvar", "prompt", "status",
        "pipestatus",
        "argv", "options", "parameters", "functions", "aliases", "commands", "builtins", "history", "histchars",
        "watch",
        "signals", "reply", "match", "mbegin", "mend", "_"
    ]

    /// `pagination: {next: link}`, `{next: {body: "$.next"}}`, `{cursor: {from: ..., param: ...}}`,
    /// each with an optional `items:`; `none` only where `allowsNone` (a case).
    mutating func readPagination(_ node: Node, allowsNone: Bool) -> CasePagination? {
        if case .scalar(let scalar) = node {
            if allowsNone, scalar.text == "none" { return CasePagination.none }
            error(
                "expected a map such as {next: link}, {next: {body: \"$.next\"}} or {cursor: {from: \"$.meta.next_cursor\", param: cursor}}"
                    + (allowsNone ? ", or none" : "") + ", found \(Self.describe(node))", at: node.mark)
            return nil
        }
        guard
            let fields = self.fields(
                node, allowed: Self.paginationKeys, context: "in pagination",
                expected: "a map such as {next: link}")
        else { return nil }
        let items = fields["items"].flatMap { jsonPath($0, what: "items") }
        if fields.has("items"), items == nil { return nil }
        let styles = fields.entries(withKeyIn: ["next", "cursor"])
        guard styles.count == 1, let style = styles.first else {
            if styles.isEmpty {
                error(
                    "pagination needs 'next' (link, or {body: \"$.next\"}) or 'cursor' ({from: \"$.meta.next_cursor\", param: cursor})",
                    at: fields.mark)
            } else {
                error("pagination has one of 'next' and 'cursor', not both", at: styles[1].key.mark)
            }
            return nil
        }
        let next: Pagination.Next
        if style.key.text == "next" {
            switch style.value {
            case .scalar:
                guard let text = string(style.value) else { return nil }
                guard Self.paginationStyles.contains(text) else {
                    error(
                        "unknown pagination style '\(text)'" + Suggestion.didYouMean(text, in: Self.paginationStyles)
                            + " (next: link, or next: {body: \"$.next\"}; or cursor: {from: ..., param: ...})",
                        at: style.value.mark)
                    return nil
                }
                next = .link
            default:
                guard
                    let body = self.fields(
                        style.value, allowed: ["body"], context: "in pagination.next",
                        expected: "link, or a map {body: \"$.next\"}")
                else { return nil }
                guard let pathNode = body["body"] else {
                    error(
                        "'next' as a map needs 'body': the JSON path of the next page's URL, like {body: \"$.next\"}",
                        at: body.mark)
                    return nil
                }
                guard let path = jsonPath(pathNode, what: "next.body") else { return nil }
                next = .bodyURL(path)
            }
        } else {
            guard
                let cursor = self.fields(
                    style.value, allowed: ["from", "param"], context: "in pagination.cursor",
                    expected: "a map {from: \"$.meta.next_cursor\", param: cursor}")
            else { return nil }
            guard let fromNode = cursor["from"], let paramNode = cursor["param"] else {
                error(
                    "'cursor' needs 'from' (the JSON path of the next cursor) and 'param' (the query parameter that sends it)",
                    at: cursor.mark)
                return nil
            }
            guard let from = jsonPath(fromNode, what: "cursor.from"), let parameter = string(paramNode) else {
                return nil
            }
            // Brackets too, for JSON:API's `page[cursor]`: the name is percent-encoded when it is set.
            guard Self.isToken(parameter.filter { $0 != "[" && $0 != "]" }) else {
                error(
                    "invalid cursor parameter name '\(parameter)'; a query parameter name here is letters, digits, [] and !#$%&'*+-.^_`|~",
                    at: paramNode.mark)
                return nil
            }
            next = .cursor(from: from, parameter: parameter)
            cursorParameterMarks.append((parameter, paramNode.mark))
        }
        return .paged(Pagination(next: next, items: items))
    }

    /// A JSON path (`$.data`), reported at the character that is wrong.
    mutating func jsonPath(_ node: Node, what: String) -> JSONPath? {
        guard let text = string(node) else { return nil }
        do {
            return try JSONPath(parsing: text)
        } catch {
            var mark = node.mark
            // The caret goes under the character at fault: after the quote of a quoted path
            // without escapes (whose columns match its text).
            if case .scalar(let scalar) = node,
                scalar.isPlain || !scalar.text.contains("\\") && !scalar.text.contains("'")
            {
                mark = Mark(line: mark.line, column: mark.column + (scalar.isPlain ? 0 : 1) + error.offset)
            }
            self.error("invalid JSON path '\(text)' in \(what): \(error.message)", at: mark)
            return nil
        }
    }

    /// `captures: {id: "$.id", location: {header: Location}, token: {body: "$.token", secret: true}}`.
    mutating func readCaptures(_ node: Node) -> [Capture] {
        guard let entries = entries(node, expected: "a map of capture names to JSON paths, like {id: \"$.id\"}") else {
            return []
        }
        var captures: [Capture] = []
        for entry in entries {
            let name = entry.key.text
            guard Self.isIdentifier(name) else {
                error(
                    "invalid capture name '\(name)'; a capture name starts with a letter or '_' and holds letters, digits and '_' "
                        + "(it becomes a shell variable)", at: entry.key.mark)
                continue
            }
            // `eval "$(moya-cli call ... --capture)"` sets these names in the user's shell: a file
            // must not be able to set PATH, IFS, LD_PRELOAD or zsh's tied `path`.
            guard name.contains(where: \.isLowercase), !Self.shellSpecialNames.contains(name) else {
                error(
                    "capture name '\(name)' could replace a shell or environment variable when --capture's output is eval'ed; "
                        + "use a name with a lower-case letter that no shell reserves, like '\(name.lowercased())_value'",
                    at: entry.key.mark)
                continue
            }
            if case .scalar = entry.value {
                if let path = jsonPath(entry.value, what: "capture '\(name)'") {
                    captures.append(Capture(name: name, source: .body(path)))
                }
                continue
            }
            guard
                let fields = fields(
                    entry.value, allowed: ["body", "header", "secret"], context: "in capture '\(name)'",
                    expected: "a JSON path, or a map {body: \"$.id\"} or {header: Location}")
            else { continue }
            let isSecret = fields["secret"].flatMap { bool($0) } ?? false
            let sources = fields.entries(withKeyIn: ["body", "header"])
            guard sources.count == 1, let source = sources.first else {
                error(
                    "capture '\(name)' has one of 'body' (a JSON path) and 'header' (a header name)",
                    at: sources.count > 1 ? sources[1].key.mark : fields.mark)
                continue
            }
            if source.key.text == "body" {
                if let path = jsonPath(source.value, what: "capture '\(name)'") {
                    captures.append(Capture(name: name, source: .body(path), isSecret: isSecret))
                }
            } else if let header = string(source.value) {
                guard Self.isToken(header) else {
                    error("invalid header name '\(header)' in capture '\(name)'", at: source.value.mark)
                    continue
                }
                captures.append(Capture(name: name, source: .header(header), isSecret: isSecret))
            }
        }
        return captures
    }

    /// `- {after: createItem#1, with: {id: "{id}"}}`.
    mutating func readChainedExample(_ node: Node, fields: Fields, number: Int, caseName: String, values: [ValueSpec])
        -> ExampleStep?
    {
        guard let afterNode = fields["after"], let afterText = string(afterNode) else { return nil }
        guard let reference = ExampleReference(parsing: afterText) else {
            error("'after' names an example as CASE or CASE#N (N from 1), found '\(afterText)'", at: afterNode.mark)
            return nil
        }
        var texts: [(name: String, text: String)] = []
        var isValid = true
        if let withNode = fields["with"] {
            guard let entries = entries(withNode, expected: "a map of value names to values, like {id: \"{id}\"}")
            else { return nil }
            for entry in entries {
                guard values.contains(where: { $0.name == entry.key.text }) else {
                    let names = values.map(\.name)
                    let hint = Suggestion.didYouMean(entry.key.text, in: names)
                    error(
                        "example \(number) of case '\(caseName)': unknown value '\(entry.key.text)'"
                            + (hint.isEmpty
                                ? (names.isEmpty
                                    ? "; the case has no values" : "; values: " + names.joined(separator: ", "))
                                : hint),
                        at: entry.key.mark)
                    isValid = false
                    continue
                }
                guard case .scalar(let scalar) = entry.value, scalar.resolved != .null else {
                    typeError(expected: "a value (string, number or bool)", found: entry.value)
                    isValid = false
                    continue
                }
                let text: String
                if case .string(let string) = scalar.resolved { text = string } else { text = scalar.text }
                texts.append((entry.key.text, text))
                pendingChainPlaceholders.append(
                    (caseName, number, ChainedExample.placeholders(in: text), entry.value.mark))
            }
        }
        // Values without placeholders are typed now; the others once their captures are known.
        let literal = texts.filter { ChainedExample.placeholders(in: $0.text).isEmpty }
        let withPlaceholders = Set(texts.map(\.name)).subtracting(literal.map(\.name))
        let binder = ArgumentBinder(
            caseName: caseName, values: values, fileBaseDirectory: directory, fileRoot: filesFolder,
            probes: probes)
        var named: [String: String] = [:]
        for value in literal { named[value.name] = value.text }
        for name in withPlaceholders { named[name] = Self.representative(for: values.first { $0.name == name }) }
        let (_, problems) = binder.bindReportingAll(positional: [], named: named)
        for problem in problems {
            if let name = problem.valueName, withPlaceholders.contains(name) { continue }
            error("example \(number) of case '\(caseName)': \(problem)", at: fields["with"]?.mark ?? node.mark)
            isValid = false
        }
        guard isValid else { return nil }
        return ExampleStep(
            number: number, kind: .chained(ChainedExample(after: reference, values: texts, mark: node.mark)))
    }

    /// A text of `value`'s type that stands for a captured one while the example is checked.
    private static func representative(for value: ValueSpec?) -> String {
        guard let value else { return "" }
        switch value.type {
        case .int, .double: return "1"
        case .bool: return "true"
        case .enumeration(let cases): return cases.first ?? ""
        default: return "x"
        }
    }

    /// The chains of the whole API: each `after` names an example that exists, no chain loops, and
    /// every `{NAME}` in `with` is captured by a step before it. A cursor parameter must not be one
    /// of the case's values (paging sets it). Runs once every case is read.
    mutating func checkPagingAndChains<Cases: RandomAccessCollection>(
        cases: Cases, apiPagination: Pagination?, apiPaginationMark: Mark?
    )
    where Cases.Element: CaseOutline, Cases.Index == Int {
        let apiPaging = apiPagination.map { PagingOutline.own(cursorParameter: $0.cursorParameter) } ?? .none
        for spec in cases {
            let paging: PagingOutline
            let mark: Mark?
            switch spec.paging {
            case .inherited: (paging, mark) = (apiPaging, apiPaginationMark)
            case .none: (paging, mark) = (.none, nil)
            case .own: (paging, mark) = (spec.paging, paginationMarks[spec.name])
            }
            if case .own(let parameter?) = paging, spec.hasValue(named: parameter) {
                error(
                    "cursor parameter '\(parameter)' is also a value of case '\(spec.name)'; paging sets it, so rename the value "
                        + "or the parameter", at: mark ?? spec.mark)
            }
            if case .own = paging, spec.isDownloadCase {
                error(
                    "case '\(spec.name)' downloads a file and cannot page; add 'pagination: none' to it",
                    at: mark ?? spec.mark)
            }
        }
        // Chains: resolve every reference, then walk each chain up to find loops and captures.
        // Cases are found by name through their index: a dictionary of the cases themselves held
        // a copy of every case (8 MiB for 10,000), and most files have no chain at all.
        let hasChains = cases.contains { spec in
            spec.exampleSteps.contains { if case .chained = $0.kind { true } else { false } }
        }
        guard hasChains else { return }
        var indexByName: [String: Int] = [:]
        indexByName.reserveCapacity(cases.count)
        for (index, spec) in cases.enumerated() { indexByName[spec.name] = index }
        let byName = { (name: String) in indexByName[name].map { cases[$0] } }
        for spec in cases {
            for step in spec.exampleSteps {
                guard case .chained(let chained) = step.kind else { continue }
                guard let target = byName(chained.after.caseName) else {
                    let hint = Suggestion.didYouMean(chained.after.caseName, in: cases.map(\.name))
                    error(
                        "example \(step.number) of case '\(spec.name)': 'after' names no case '\(chained.after.caseName)'"
                            + hint, at: chained.mark)
                    continue
                }
                if let number = chained.after.number, !target.exampleSteps.contains(where: { $0.number == number }) {
                    error(
                        "example \(step.number) of case '\(spec.name)': case '\(target.name)' has no example \(number) "
                            + "(it has \(target.exampleSteps.count))", at: chained.mark)
                    continue
                }
                var captured = Set<String>()
                var visited: Set<String> = ["\(spec.name)#\(step.number)"]
                var reference: ExampleReference? = chained.after
                var loops = false
                while let current = reference, let currentCase = byName(current.caseName) {
                    let number = current.number ?? (currentCase.exampleSteps.isEmpty ? 0 : 1)
                    guard visited.insert("\(currentCase.name)#\(number)").inserted else {
                        loops = true
                        break
                    }
                    captured.formUnion(currentCase.captureNames)
                    if let next = currentCase.exampleSteps.first(where: { $0.number == number }),
                        case .chained(let before) = next.kind
                    {
                        reference = before.after
                    } else {
                        reference = nil
                    }
                }
                if loops {
                    error(
                        "example \(step.number) of case '\(spec.name)': its 'after' chain comes back to itself (a cycle)",
                        at: chained.mark)
                    continue
                }
                for pending in pendingChainPlaceholders
                where pending.caseName == spec.name && pending.number == step.number {
                    for name in pending.names where !captured.contains(name) {
                        let hint = Suggestion.didYouMean(name, in: Array(captured)) { "{\($0)}" }
                        error(
                            "'{\(name)}' is not captured by a step before example \(step.number) of case '\(spec.name)'"
                                + (hint.isEmpty
                                    ? (captured.isEmpty
                                        ? "; the steps before it capture nothing (add 'captures:' to them)"
                                        : "; captured: " + captured.sorted().joined(separator: ", ")) : hint),
                            at: pending.mark)
                    }
                }
            }
        }
    }
}

/// Whether a case pages, and the parameter a cursor sets.
enum PagingOutline {
    /// No `pagination:` on the case: the API's, if any.
    case inherited
    /// Does not page.
    case none
    /// Pages, with a cursor parameter when the next page is a cursor.
    case own(cursorParameter: String?)
}

extension Pagination {
    /// The query parameter a cursor sets, if the next page is a cursor.
    var cursorParameter: String? {
        if case .cursor(_, let parameter) = next { parameter } else { nil }
    }
}

/// What the checks across cases (`checkPagingAndChains`) read of a case.
protocol CaseOutline {
    var name: String { get }
    var mark: Mark { get }
    var paging: PagingOutline { get }
    /// Whether the case has a value of this name.
    func hasValue(named name: String) -> Bool
    var isDownloadCase: Bool { get }
    /// The examples, in order; the chain checks read their numbers and `after`s.
    var exampleSteps: [ExampleStep] { get }
    /// The names the case captures.
    var captureNames: [String] { get }
}

extension CaseSpec: CaseOutline {
    // A protocol's requirements need members of their own: dynamic member lookup does not witness them.
    var name: String { fields.value.name }
    var mark: Mark { fields.value.mark }
    var exampleSteps: [ExampleStep] { fields.value.exampleSteps }

    var isDownloadCase: Bool { self.task.isDownload }

    var paging: PagingOutline {
        switch self.pagination {
        case .inherited: .inherited
        case .none: .none
        case .paged(let own): .own(cursorParameter: own.cursorParameter)
        }
    }

    func hasValue(named name: String) -> Bool {
        self.values.contains { $0.name == name }
    }

    var captureNames: [String] { self.captures.map(\.name) }
}

/// A case's outline, kept instead of the case when loading hands each case on and keeps none
/// (`validate`, `list`): what the checks across cases read, and no more. It held the case's
/// values and examples whole: for 10,000 cases 2.8 MB of a 5.9 MB peak, more than the file.
/// What few cases have (a cursor parameter, examples, captures) is kept apart, so a digest is
/// 56 bytes: 10,000 of 88 bytes were 0.9 MB at the end of a `list`, its peak.
struct CaseDigest: CaseOutline {
    var name: String
    var mark: Mark
    /// The values' names, each as its UTF-8 length, `:` and the name (`2:id4:page`): one string,
    /// held inline (no allocation) up to 15 bytes, where most cases' names fit.
    private var valueNames: String
    private var rare: Rare?
    private var pagingKind: PagingKind
    var isDownloadCase: Bool

    private enum PagingKind: UInt8 {
        case inherited, none, own
    }

    /// What few cases have; `nil` for the others.
    private final class Rare {
        let cursorParameter: String?
        let exampleSteps: [ExampleStep]
        let captureNames: [String]

        init(cursorParameter: String?, exampleSteps: [ExampleStep], captureNames: [String]) {
            self.cursorParameter = cursorParameter
            self.exampleSteps = exampleSteps
            self.captureNames = captureNames
        }
    }

    init(_ spec: CaseSpec) {
        name = spec.name
        mark = spec.mark
        valueNames = spec.values.reduce(into: "") { names, value in names += "\(value.name.utf8.count):\(value.name)" }
        isDownloadCase = spec.task.isDownload
        var cursorParameter: String?
        switch spec.paging {
        case .inherited: pagingKind = .inherited
        case .none: pagingKind = .none
        case .own(let parameter):
            pagingKind = .own
            cursorParameter = parameter
        }
        // The examples' numbers and `after`s, without their arguments and texts.
        let exampleSteps = spec.exampleSteps.map { step in
            switch step.kind {
            case .arguments: ExampleStep(number: step.number, kind: .arguments([:]))
            case .chained(let chained):
                ExampleStep(
                    number: step.number,
                    kind: .chained(ChainedExample(after: chained.after, values: [], mark: chained.mark)))
            }
        }
        let captureNames = spec.captures.map(\.name)
        if cursorParameter != nil || !exampleSteps.isEmpty || !captureNames.isEmpty {
            rare = Rare(cursorParameter: cursorParameter, exampleSteps: exampleSteps, captureNames: captureNames)
        }
    }

    var paging: PagingOutline {
        switch pagingKind {
        case .inherited: .inherited
        case .none: .none
        case .own: .own(cursorParameter: rare?.cursorParameter)
        }
    }

    var exampleSteps: [ExampleStep] { rare?.exampleSteps ?? [] }

    var captureNames: [String] { rare?.captureNames ?? [] }

    func hasValue(named wanted: String) -> Bool {
        let names = Array(valueNames.utf8)
        let target = Array(wanted.utf8)
        var position = 0
        while position < names.count {
            var length = 0
            while position < names.count, names[position] != UInt8(ascii: ":") {
                length = length * 10 + Int(names[position] - UInt8(ascii: "0"))
                position += 1
            }
            let start = position + 1
            if length == target.count, names[start..<(start + length)].elementsEqual(target) { return true }
            position = start + length
        }
        return false
    }
}

/// The digests of the cases handed on, in chunks of 1,024: an array grown by doubling had room
/// for 16,384 digests when 10,000 were kept (and, while growing, held the old and the new buffer
/// at once).
typealias CaseDigests = ChunkedArray<CaseDigest>
