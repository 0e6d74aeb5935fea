import PositionedYAML

/// `cases:` and each case's own keys; values, tasks, samples and examples have their own files.
extension TargetFileValidator {
    static let caseKeys = [
        "description", "values", "baseURL", "path", "method", "headers", "auth", "task", "validation", "timeout",
        "idleTimeout", "redirects", "sample", "samples", "examples", "pagination", "captures", "cache", "expect"
    ]

    /// The valid cases: kept, or handed to ``caseHandler`` with only their digests kept.
    struct ReadCases {
        var kept: [CaseSpec] = []
        /// Set only when the cases were handed on.
        var digests = CaseDigests(chunkShift: 10)
        /// How many, kept or handed on.
        var count = 0

        /// Keeps `spec`, or hands it to `handler` and keeps its digest.
        mutating func take(_ spec: CaseSpec, handingTo handler: ((CaseSpec) -> Void)?) {
            count += 1
            if let handler {
                digests.append(CaseDigest(spec))
                handler(spec)
            } else {
                kept.append(spec)
            }
        }
    }

    mutating func readCases(_ node: Node, apiAuth: APIAuthNames?, hasAuthProblem: Bool) -> ReadCases {
        if let streamed = takeStreamedCases(in: node, apiAuth: apiAuth, hasAuthProblem: hasAuthProblem) {
            return streamed
        }
        guard let entries = entries(node, expected: "a map of case names to cases") else { return ReadCases() }
        if entries.isEmpty {
            // Said, not refused: an import of a description with no operations (a webhooks-only
            // OpenAPI 3.1 document) writes it.
            warning("'cases' is empty; the API has no cases to call", at: node.mark)
        }
        var cases = ReadCases()
        if caseHandler == nil { cases.kept.reserveCapacity(entries.count) }
        for index in entries.indices {
            let auth = CaseAuthContext.known(apiAuth: apiAuth, hasAuthProblem: hasAuthProblem)
            if let spec = readCase(name: entries.key(at: index), node: entries.value(at: index), auth: auth) {
                cases.take(spec, handingTo: caseHandler)
            }
        }
        return cases
    }

    mutating func readCase(name key: Node.Scalar, node: Node, auth authContext: CaseAuthContext) -> CaseSpec? {
        let name = key.text
        // Only built when a message needs it.
        func context() -> String { "in case '\(name)'" }
        var isValid = true
        if !Self.isIdentifier(name) {
            error(
                "invalid case name '\(name)'; a case name starts with a letter or '_' and holds letters, digits and '_'",
                at: key.mark)
            isValid = false
        }
        placeholderUses.removeAll(keepingCapacity: true)
        if !invalidValueNames.isEmpty { invalidValueNames = [] }
        guard
            let fields = fields(
                node, allowed: Self.caseKeys, context: context(), expected: "a map with at least 'path' (a case)")
        else { return nil }
        let description = fields["description"].flatMap { oneLine($0) }
        let values = fields["values"].map { readValues($0, caseName: name) } ?? []

        var path: Template?
        if let pathNode = fields["path"] {
            path = readPath(pathNode)
        } else {
            error("missing required key 'path' \(context()); add one starting with '/'", at: key.mark)
        }
        let baseURL = fields["baseURL"].flatMap { readBaseURL($0, positionName: "a case's baseURL") }
        var method = "GET"
        if let methodNode = fields["method"] {
            if let text = string(methodNode) {
                if let problem = MethodSemantics.problem(with: text) {
                    error(problem, at: methodNode.mark)
                    isValid = false
                } else {
                    method = text
                }
            } else {
                isValid = false
            }
        }
        let requestPosition = TemplatePosition(
            name: "a case's headers", placeholderRole: .request, allowsEnvironment: true)
        let headers = fields["headers"].map { readHeaders($0, at: requestPosition) } ?? []
        let auth = fields["auth"].flatMap { readCaseAuth($0, context: authContext) } ?? .inherited
        let task =
            fields["task"].flatMap {
                readTask($0, method: method, methodKnown: isValid, caseName: name, values: values)
            }
            ?? .plain
        let validation = fields["validation"].flatMap { readValidation($0) }
        let timeout = fields["timeout"].flatMap { positiveNumber($0) }
        let idleTimeout = fields["idleTimeout"].flatMap { positiveNumber($0) }
        let redirects = fields["redirects"].flatMap { readRedirects($0) }
        let samples = readSamples(fields, caseName: name, caseMark: key.mark)
        checkPlaceholders(values: values, caseName: name)
        let exampleSteps = fields["examples"].map { readExamples($0, caseName: name, values: values) } ?? []
        var pagination = CasePagination.inherited
        if let node = fields["pagination"] {
            cursorParameterMarks.removeAll()
            pagination = readPagination(node, allowsNone: true) ?? .inherited
            paginationMarks[name] = cursorParameterMarks.last?.mark ?? node.mark
        }
        let captures = fields["captures"].map { readCaptures($0) } ?? []
        let cache = fields["cache"].flatMap { bool($0) }
        noteRedirectExpectation(
            caseName: name, mark: key.mark, validation: validation, captures: captures, samples: samples,
            redirects: redirects)
        let expectation = fields["expect"].flatMap { readExpectation($0) }
        guard isValid, let path else { return nil }
        var spec = CaseSpec(
            CaseSpec.Fields(
                name: name, mark: key.mark, description: description, values: values, path: path, baseURL: baseURL,
                method: method,
                headers: headers, auth: auth, task: task, validation: validation, timeout: timeout,
                idleTimeout: idleTimeout, redirects: redirects, samples: samples,
                examples: exampleSteps.compactMap {
                    if case .arguments(let arguments) = $0.kind { arguments } else { nil }
                },
                exampleSteps: exampleSteps, pagination: pagination, captures: captures, expectation: expectation))
        if let cache { spec.usesCache = cache }
        return spec
    }

    private mutating func readPath(_ node: Node) -> Template? {
        let position = TemplatePosition(name: "a path", placeholderRole: .request, allowsEnvironment: false)
        guard let template = template(node, at: position) else { return nil }
        guard Self.startsWithSlash(template.source) else {
            error("a path starts with '/'; write '/\(template.source)'", at: node.mark)
            return nil
        }
        for segment in template.segments {
            guard case .literal(let text) = segment else { continue }
            // Paths are nearly always ASCII; then bytes tell all, without Unicode properties.
            let (isASCII, hasQueryOrFragment, hasSpaceOrControl) = text.withUTF8Bytes { bytes in
                var found = (isASCII: true, queryOrFragment: false, spaceOrControl: false)
                for byte in bytes {
                    if byte >= 0x80 { found.isASCII = false }
                    if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { found.queryOrFragment = true }
                    if byte <= 0x20 { found.spaceOrControl = true }
                }
                return found
            }
            if isASCII ? hasQueryOrFragment : text.contains("?") || text.contains("#") {
                error(
                    "a path has no query or fragment; put query parameters in the task ('parameters' with encoding url)",
                    at: node.mark)
                return nil
            }
            if isASCII
                ? hasSpaceOrControl
                : text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
            {
                error("a path cannot contain spaces or control characters; escape them (%20)", at: node.mark)
                return nil
            }
        }
        return template
    }

    /// `text.hasPrefix("/")`: a '/' followed by an ASCII byte (or nothing) is a whole character,
    /// so only a '/' followed by a non-ASCII byte, perhaps a combining mark, needs `hasPrefix`.
    private static func startsWithSlash(_ text: String) -> Bool {
        let (first, second) = text.withUTF8Bytes { ($0.first, $0.count > 1 ? $0[1] : nil) }
        guard first == UInt8(ascii: "/") else { return false }
        guard let second, second >= 0x80 else { return true }
        return text.hasPrefix("/")
    }

    private mutating func readCaseAuth(_ node: Node, context: CaseAuthContext) -> CaseAuthMode? {
        guard let text = string(node) else { return nil }
        if text == "none" { return CaseAuthMode.none }
        switch context {
        case .known(let apiAuth, let hasAuthProblem):
            return checkCaseAuth(text, at: node.mark, apiAuth: apiAuth, hasAuthProblem: hasAuthProblem)
        case .deferred:
            // Were the check to fail, the error alone decides: a file with errors has no API.
            streamedCases?.pendingAuth.append((text, node.mark))
            return AuthSpec.Kind(rawValue: text).map(CaseAuthMode.explicit) ?? .scheme(text)
        }
    }

    /// A case's auth mode `text` (written at `mark`, not `none`) against the API's auth: a
    /// scheme's name when the API names its schemes, else the type of its one scheme.
    mutating func checkCaseAuth(_ text: String, at mark: Mark, apiAuth: APIAuthNames?, hasAuthProblem: Bool)
        -> CaseAuthMode?
    {
        let kind = AuthSpec.Kind(rawValue: text)
        if hasAuthProblem { return kind.map(CaseAuthMode.explicit) ?? .scheme(text) }
        if case .schemes(let names)? = apiAuth {
            guard names.contains(text) else {
                unknownScheme(text, names: ["none"] + names, at: mark, what: "auth scheme")
                return nil
            }
            return .scheme(text)
        }
        guard let kind else {
            let modes = ["none"] + AuthSpec.Kind.allCases.map(\.rawValue)
            let hint = Suggestion.didYouMean(text, in: modes)
            error(
                "unknown auth mode '\(text)'"
                    + (hint.isEmpty ? "; expected one of " + modes.joined(separator: ", ") : hint), at: mark)
            return nil
        }
        guard case .single(let apiAuth)? = apiAuth else {
            error(
                "case auth '\(text)' needs the API's auth; add 'auth: {type: \(text), ...}' at the top level, or use 'auth: none'",
                at: mark)
            return nil
        }
        guard apiAuth == kind else {
            error(
                "case auth '\(text)' does not match the API's auth type '\(apiAuth.rawValue)'; write '\(apiAuth.rawValue)' or 'none'",
                at: mark)
            return nil
        }
        return .explicit(kind)
    }

    /// Every placeholder names a value; `file` values only as file paths; optional values only
    /// alone, where they can be left out; list values only alone in JSON or a header; every
    /// value is used.
    private mutating func checkPlaceholders(values: [ValueSpec], caseName: String) {
        for use in placeholderUses {
            guard let value = values.first(where: { $0.name == use.name }) else {
                if invalidValueNames.contains(use.name) { continue }
                let names = values.map(\.name)
                let hint = Suggestion.didYouMean(use.name, in: names) { "{\($0)}" }
                let rest =
                    hint.isEmpty
                    ? (names.isEmpty
                        ? "; case '\(caseName)' declares no values" : "; values: " + names.joined(separator: ", "))
                    : hint
                error("unknown placeholder '{\(use.name)}'\(rest)", at: use.mark)
                continue
            }
            if value.type == .file && use.role == .request {
                error(
                    "file value '\(value.name)' can only be used as a file path (upload, dataFile, multipart file) or in samples",
                    at: use.mark)
            }
            if value.type.elementType != nil && (use.lonePlace == nil || use.lonePlace == .multipart) {
                if use.positionName == "a path" {
                    error(
                        "list value '\(value.name)' cannot be a path placeholder; send it as a parameter, a JSON member or a header",
                        at: use.mark)
                } else {
                    error(
                        "list value '\(value.name)' must stand alone as \"{\(value.name)}\" in a parameter, a JSON member or element, or a header; here it is part of \(use.positionName)",
                        at: use.mark)
                }
                continue
            }
            if value.isOptional && use.lonePlace == nil {
                if use.positionName == "a path" {
                    error(
                        "optional value '\(value.name)' cannot be a path placeholder; a path needs every part (give it a default, or make it a parameter)",
                        at: use.mark)
                } else {
                    error(
                        "optional value '\(value.name)' must stand alone as \"{\(value.name)}\" (a parameter, a JSON member or element, a header or a multipart part) so that it can be left out; here it is part of \(use.positionName)",
                        at: use.mark)
                }
            }
        }
        for value in values where !placeholderUses.contains(where: { $0.name == value.name && $0.role != .sample }) {
            error(
                "value '\(value.name)' is never used; use it as {\(value.name)} in the path, headers or task",
                at: value.mark)
        }
    }
}
