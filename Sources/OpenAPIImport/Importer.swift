import TargetModel
import TextSafety

/// One import: the document, what was found wrong with it, and what could not be mapped.
final class Importer {
    let document: SpecDocument
    let options: OpenAPIImportOptions
    private(set) var problems: [SpecProblem] = []
    /// The problems found, to report each once (a shared node is met from many operations).
    private var reported = Set<SpecProblem>()
    var notes: [ImportNote] = []
    private var notedKeys = Set<[String]>()
    var apiName = "api"
    var environmentPrefix = "API"
    var security = SecurityMapping()
    var usesExampleUpload = false
    /// The API's `baseURL` as written: a case whose own server makes the same one needs no `baseURL`.
    var documentBaseURL: String?

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    init(document: SpecDocument, options: OpenAPIImportOptions) {
        self.document = document
        self.options = options
    }

    var root: SpecNode { document.root }
    var isSwagger2: Bool { document.version == .swagger2 }

    func problem(_ node: SpecNode, _ message: String) {
        record(SpecProblem(pointer: node.pointer, mark: node.mark, message: message))
    }

    private func record(_ found: SpecProblem) {
        if reported.insert(found).inserted { problems.append(found) }
    }

    func note(
        _ node: SpecNode, _ message: String, case caseName: String? = nil, operation: String? = nil, skips: Bool = false
    ) {
        // A node met twice (a shared parameter, a response reached from two places) is noted once.
        guard notedKeys.insert([caseName ?? "", operation ?? "", node.pointer, message]).inserted else { return }
        notes.append(
            ImportNote(
                caseName: caseName, operation: operation, pointer: node.pointer, message: message, skipsOperation: skips
            ))
    }

    /// `node` with its `$ref` followed; a broken local reference is a problem of the spec, an
    /// external one a note; both give `nil`.
    func resolved(_ node: SpecNode, operation: Operation? = nil) -> SpecNode? {
        do { return try document.resolve(node) } catch {
            switch error {
            case .external(let target, let reference):
                note(
                    reference, "external $ref '\(target)' is not followed (only references inside the document are)",
                    case: operation?.caseName, operation: operation?.label)
            case .invalid(let found):
                record(found)
            }
            return nil
        }
    }

    /// A path item or an operation with its `$ref` followed (DigitalOcean writes each operation
    /// in a file of its own: `get: {$ref: "resources/keys/get.yml"}`). One that cannot be
    /// followed is a problem of the spec (65), never a case made of the reference alone: an
    /// external one read from standard input, which has no folder to read it from, too.
    func resolvedStructure(_ node: SpecNode, what: String) -> SpecNode? {
        do { return try document.resolve(node) } catch {
            switch error {
            case .external(let target, let reference):
                problem(
                    reference,
                    "\(what) is a $ref to another file ('\(DisplayText.escaped(target))'), read only when the spec is imported from its file, not from standard input"
                )
            case .invalid(let found):
                record(found)
            }
            return nil
        }
    }

    func run() throws(OpenAPIImportError) -> OpenAPIImportResult {
        let info = root["info"]
        let title = info?["title"]?.string
        if let chosen = options.apiName {
            apiName = chosen
            environmentPrefix = Naming.environmentPrefix(chosen)
        } else {
            apiName = title.flatMap(Naming.apiName) ?? "api"
            environmentPrefix = Naming.untrustedEnvironmentPrefix(apiName)
        }

        var top: [YAMLText.Entry] = [YAMLText.Entry("api", .string(apiName))]
        if let title {
            let version = info?["version"]?.text.map { " " + $0 } ?? ""
            top.append(YAMLText.Entry("description", .string(oneLine(title + version, limit: 200))))
        }
        top += serverEntries()
        if case .string(let written)? = top.first(where: { $0.key == "baseURL" })?.value { documentBaseURL = written }
        security = mapSecuritySchemes()
        // Written once the cases are mapped: an operation's own OAuth scopes add schemes.
        let authIndex = top.count

        let webhookCount = noteWebhooks()
        guard let paths = root["paths"] else {
            // OpenAPI 3.1 makes `paths` optional: a document of webhooks (or components) alone
            // is valid, and describes an API a client calls nothing of.
            guard case .openAPI3(let minor) = document.version, minor >= 1 else {
                problem(root, "the document has no 'paths': there are no operations to import")
                throw .invalidSpec(problems)
            }
            var withAuth = top
            if let auth = security.authEntry() { withAuth.insert(auth, at: authIndex) }
            return try withoutCases(withAuth, title: title, webhookCount: webhookCount)
        }
        guard let pathMembers = paths.members else {
            problem(paths, "'paths' is not a map")
            throw .invalidSpec(problems)
        }
        var cases: [YAMLText.Entry] = []
        var taken = Set<String>()
        var selected = 0
        for (path, item) in pathMembers {
            guard path.hasPrefix("/") else {
                problem(item, "path '\(DisplayText.escaped(path))' does not start with '/'")
                continue
            }
            guard let item = resolvedStructure(item, what: "path item '\(DisplayText.escaped(path))'") else { continue }
            guard let members = item.members else {
                problem(item, "path item '\(DisplayText.escaped(path))' is not a map")
                continue
            }
            for (method, written) in members where Self.methods.contains(method) {
                let label = "operation \(method.uppercased()) \(DisplayText.escaped(path))"
                guard let operationNode = resolvedStructure(written, what: label) else { continue }
                guard operationNode.isMapping else {
                    problem(operationNode, "operation \(method.uppercased()) \(DisplayText.escaped(path)) is not a map")
                    continue
                }
                let operation = Operation(method: method.uppercased(), path: path, node: operationNode, pathItem: item)
                guard isSelected(operation) else { continue }
                selected += 1
                let firstNote = notes.count
                operation.caseName = caseName(for: operation, taken: &taken)
                if let entry = mapOperation(operation, firstNote: firstNote) { cases.append(entry) }
            }
        }
        for refusal in document.refusals { record(refusal) }
        if !problems.isEmpty { throw .invalidSpec(problems) }
        if let auth = security.authEntry() { top.insert(auth, at: authIndex) }
        collapseRepeatedNotes(in: &cases)
        if selected == 0 {
            if !options.only.isEmpty { throw .nothingSelected(options.only) }
            if webhookCount > 0 { return try withoutCases(top, title: title, webhookCount: webhookCount) }
            problem(paths, "the document has no operations to import")
            throw .invalidSpec(problems)
        }
        if cases.isEmpty {
            // Every operation was skipped: a target file needs a case, so there is nothing to write.
            problem(
                paths,
                "no operation could be imported: "
                    + notes.filter(\.skipsOperation).map(\.message).prefix(3).joined(separator: "; "))
            throw .invalidSpec(problems)
        }
        top.append(YAMLText.Entry("cases", .map(cases)))
        return OpenAPIImportResult(
            text: YAMLText.render(top, header: header(title: title)),
            apiName: apiName, caseCount: cases.count, operationCount: selected, notes: notes,
            credentials: security.credentials, usesExampleUpload: usesExampleUpload)
    }

    /// The API with `cases: {}` (a warning when loaded), for a document that describes no
    /// operation a client makes: webhooks only, or (3.1) no `paths` at all. Said in a note.
    private func withoutCases(_ top: [YAMLText.Entry], title: String?, webhookCount: Int) throws(OpenAPIImportError)
        -> OpenAPIImportResult
    {
        for refusal in document.refusals { record(refusal) }
        if !problems.isEmpty { throw .invalidSpec(problems) }
        note(
            root,
            webhookCount > 0
                ? "the document describes no operations, only \(webhookCount) webhook(s): the API has no cases"
                : "the document has no 'paths': the API has no cases")
        let text = YAMLText.render(top + [YAMLText.Entry("cases", .map([]))], header: header(title: title))
        return OpenAPIImportResult(
            text: text, apiName: apiName, caseCount: 0, operationCount: 0, notes: notes,
            credentials: security.credentials, usesExampleUpload: usesExampleUpload)
    }

    /// The comment at the top: where the file comes from, the credentials' variables, and the
    /// notes that concern the API as a whole.
    private func header(title: String?) -> [String] {
        var lines = [
            "Imported by moya-cli import openapi from \(title.map { "'\($0)'" } ?? "an OpenAPI description"); review it, then commit it."
        ]
        if !security.credentials.isEmpty {
            lines.append("Credentials come from these environment variables:")
            let width = security.credentials.map(\.name.count).max() ?? 0
            for credential in security.credentials {
                lines.append(
                    "  " + credential.name + String(repeating: " ", count: width - credential.name.count + 2)
                        + credential.purpose)
            }
        }
        let general = notes.filter { $0.caseName == nil }
        if !general.isEmpty {
            lines.append("Not imported:")
            for item in general { lines.append("  \(item.message) (\(item.pointer))") }
        }
        return lines
    }

    // MARK: - Servers

    /// `baseURL` from the first server, and `environments` when there are several.
    private func serverEntries() -> [YAMLText.Entry] {
        if isSwagger2 { return [YAMLText.Entry("baseURL", .string(swaggerBaseURL()))] }
        let servers = root["servers"]?.elements ?? []
        guard let first = servers.first else {
            note(
                root,
                "no 'servers': the base URL comes from ${\(environmentPrefix)_BASE_URL} (default http://localhost)")
            return [YAMLText.Entry("baseURL", .string("${\(environmentPrefix)_BASE_URL:-http://localhost}"))]
        }
        var entries = [YAMLText.Entry("baseURL", .string(baseURL(of: first)))]
        if servers.count > 1 {
            var taken = Set<String>()
            var environments: [YAMLText.Entry] = []
            for (index, server) in servers.enumerated() {
                let described = server["description"]?.string.map { Naming.lowerCamel($0, fallback: "") } ?? ""
                // Environment names start with a letter.
                let usable = described.first.map { $0.isASCII && $0.isLetter } == true && described.count <= 32
                let name = Naming.unique(usable ? described : "server\(index + 1)", in: &taken)
                environments.append(
                    YAMLText.Entry(name, .map([YAMLText.Entry("baseURL", .string(baseURL(of: server)))])))
            }
            entries.append(YAMLText.Entry("environments", .map(environments)))
            entries.append(YAMLText.Entry("defaultEnvironment", .string(environments[0].key)))
        }
        return entries
    }

    /// A server's URL with its variables replaced by their defaults, as the base URL.
    func baseURL(of server: SpecNode) -> String {
        guard var url = server["url"]?.string else {
            problem(server, "server has no 'url'")
            return "http://localhost"
        }
        for (name, variable) in server["variables"]?.members ?? [] {
            let value = variable["default"]?.text ?? variable["enum"]?.elements?.first?.text
            if value == nil { problem(variable, "server variable '\(DisplayText.escaped(name))' has no default") }
            url = url.replacing("{\(name)}", with: value ?? "")
        }
        return baseURL(from: url, at: server)
    }

    /// `url` (a server's, or Swagger's `host` and `basePath`) as the base URL: without a query,
    /// a fragment or a trailing slash; a relative one put after ${PREFIX_BASE_URL}. Whatever the
    /// spec wrote stays literal text: `${` and braces in an absolute URL are written so the
    /// target file reads them back as they are, and a relative path is percent-escaped as a
    /// case's path is (a space, `$`, braces), so it can never name a variable.
    private func baseURL(from url: String, at node: SpecNode) -> String {
        var url = url
        if let cut = url.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            note(node, "the server URL's query or fragment is left out of the base URL")
            url = String(url[..<cut])
        }
        while url.hasSuffix("/") { url.removeLast() }
        let lower = url.lowercased()
        let fromVariable = "${\(environmentPrefix)_BASE_URL:-http://localhost}"
        if lower.hasPrefix("https://") || lower.hasPrefix("http://"), Self.hasUserInfo(url) {
            // A name and password in a spec's URL would be sent as credentials to that host.
            note(
                node,
                "server URL has a user name or password: it is not the base URL, which comes from ${\(environmentPrefix)_BASE_URL}"
            )
            return fromVariable
        }
        if lower.hasPrefix("https://") || lower.hasPrefix("http://"), let problem = BaseURLCheck.problem(in: url) {
            note(node, "server URL cannot be the base URL (\(problem)): it comes from ${\(environmentPrefix)_BASE_URL}")
            return fromVariable
        }
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            if url.contains("{") || url.contains("}") || url.contains("$") {
                note(node, "server URL '\(url)' has braces or '$' left: they are kept literally")
                return SchemaSampler.literal(url)
            }
            return url
        }
        if url.contains("://") {
            note(
                node,
                "server URL '\(url)' is not http or https: the base URL comes from ${\(environmentPrefix)_BASE_URL}")
            return fromVariable
        }
        note(
            node,
            "server URL '\(url)' is relative: the base URL is ${\(environmentPrefix)_BASE_URL} (default http://localhost) followed by it"
        )
        return fromVariable + Self.relativeBasePath(url)
    }

    /// Whether an absolute URL's authority holds `user@` or `user:password@`.
    static func hasUserInfo(_ url: String) -> Bool {
        guard let separator = url.firstRange(of: "://") else { return false }
        return url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }.contains("@")
    }

    /// A relative server URL or a Swagger `basePath` as the path after the base URL's origin:
    /// with a leading `/`, percent-escaped as a case's path.
    static func relativeBasePath(_ path: String) -> String {
        guard !path.isEmpty else { return "" }
        return escapedPathText((path.hasPrefix("/") ? path : "/" + path)[...])
    }

    /// Swagger 2.0's `schemes`, `host` and `basePath`, by the rules of a server URL.
    private func swaggerBaseURL() -> String {
        let schemes = root["schemes"]?.elements?.compactMap(\.string) ?? []
        let scheme = schemes.contains("https") ? "https" : (schemes.first(where: { $0 == "http" }) ?? "https")
        var basePath = root["basePath"]?.string ?? ""
        while basePath.hasSuffix("/") { basePath.removeLast() }
        if !basePath.isEmpty, !basePath.hasPrefix("/") { basePath = "/" + basePath }
        guard let hostNode = root["host"], let host = hostNode.string, !host.isEmpty else {
            note(root, "no 'host': the base URL comes from ${\(environmentPrefix)_BASE_URL} (default http://localhost)")
            return "${\(environmentPrefix)_BASE_URL:-http://localhost}" + Self.relativeBasePath(basePath)
        }
        // A host holding a scheme, a path or a query is not one: it would make another URL.
        guard !host.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "@" }) else {
            note(
                hostNode, "host '\(host)' is not a host name: the base URL comes from ${\(environmentPrefix)_BASE_URL}")
            return "${\(environmentPrefix)_BASE_URL:-http://localhost}" + Self.relativeBasePath(basePath)
        }
        return baseURL(from: scheme + "://" + host + Self.relativeBasePath(basePath), at: root["basePath"] ?? hostNode)
    }

    // MARK: - Selection and names

    private func isSelected(_ operation: Operation) -> Bool {
        guard !options.only.isEmpty else { return true }
        let tags = operation.node["tags"]?.elements?.compactMap(\.string) ?? []
        let identifier = operation.node["operationId"]?.string
        return options.only.contains { pattern in
            if pattern.hasPrefix("/") { return PathGlob.matches(pattern, operation.path) }
            return tags.contains(pattern) || identifier == pattern
        }
    }

    private func caseName(for operation: Operation, taken: inout Set<String>) -> String {
        let base: String
        if let identifier = operation.node["operationId"]?.string, !identifier.isEmpty {
            base = Naming.lowerCamel(
                identifier, fallback: Naming.caseName(method: operation.method, path: operation.path))
        } else {
            base = Naming.caseName(method: operation.method, path: operation.path)
        }
        let name = Naming.unique(base, in: &taken)
        if name != base {
            note(
                operation.node, "case name '\(base)' was taken; this operation is case '\(name)'", case: name,
                operation: operation.label)
        }
        return name
    }

    /// The first paragraph of `text` as one line (``TextSafety/OneLineText``, the rule every
    /// importer uses).
    func oneLine(_ text: String, limit: Int = 160) -> String {
        OneLineText.firstParagraph(text, limit: limit)
    }
}

/// One operation of the spec being mapped.
final class Operation {
    let method: String
    let path: String
    let node: SpecNode
    let pathItem: SpecNode
    var caseName = ""

    init(method: String, path: String, node: SpecNode, pathItem: SpecNode) {
        self.method = method
        self.path = path
        self.node = node
        self.pathItem = pathItem
    }

    /// `GET /users/{id}`.
    var label: String { method + " " + path }
}

/// `--only` path globs: `*` matches within one segment, `**` any number of segments.
enum PathGlob {
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: true)
        let pathParts = path.split(separator: "/", omittingEmptySubsequences: true)
        return match(patternParts[...], pathParts[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            for start in path.startIndex...path.endIndex where match(pattern.dropFirst(), path[start...]) {
                return true
            }
            return false
        }
        guard let segment = path.first, segmentMatches(first, segment) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// `*` matches any run of characters in a segment.
    private static func segmentMatches(_ pattern: Substring, _ segment: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return pattern == segment }
        let prefix = pattern[..<star]
        guard segment.hasPrefix(prefix) else { return false }
        let rest = pattern[pattern.index(after: star)...]
        var remainder = segment.dropFirst(prefix.count)
        while true {
            if segmentMatches(rest, remainder) { return true }
            guard !remainder.isEmpty else { return false }
            remainder = remainder.dropFirst()
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = self[...]
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
