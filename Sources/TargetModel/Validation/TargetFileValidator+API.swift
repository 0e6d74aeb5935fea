import PositionedYAML

/// The top level of a target file.
extension TargetFileValidator {
    static let apiKeys = [
        "api", "description", "baseURL", "headers", "sensitiveHeaders", "auth", "validation", "timeout",
        "idleTimeout", "connectTimeout", "redirects", "cookies", "tls",
        "environments", "defaultEnvironment", "cases", "pagination", "prepare", "cache"
    ]

    mutating func readAPI(_ root: Node) -> APISpec? {
        guard
            let fields = fields(
                root, allowed: Self.apiKeys, context: "at the top level",
                expected: "a map with 'baseURL' and 'cases' (a target file)")
        else { return nil }
        let name = readAPIName(fields)
        apiName = name
        let description = fields["description"].flatMap { oneLine($0) }

        let apiLevel = TemplatePosition(name: "the API's headers", placeholderRole: nil, allowsEnvironment: true)
        var baseURL: Template?
        if let node = fields["baseURL"] {
            baseURL = readBaseURL(node, positionName: "baseURL")
        } else {
            error(
                "missing required key 'baseURL' at the top level; add the API's base URL, like 'baseURL: https://api.example.com'",
                at: fields.mark)
        }
        let headers = fields["headers"].map { readHeaders($0, at: apiLevel) } ?? []
        let sensitiveHeaders = fields["sensitiveHeaders"].map { readSensitiveHeaders($0) } ?? []
        let auth = fields["auth"].flatMap { readAPIAuth($0) }
        let validation = fields["validation"].flatMap { readValidation($0) }
        let timeout = fields["timeout"].flatMap { positiveNumber($0) }
        let idleTimeout = fields["idleTimeout"].flatMap { positiveNumber($0) } ?? APISpec.defaultIdleTimeout
        let redirects = fields["redirects"].flatMap { readRedirects($0) }
        let connectTimeout = fields["connectTimeout"].flatMap { positiveNumber($0) } ?? 10
        let keepsCookies = fields["cookies"].flatMap { bool($0) } ?? true
        let tls = fields["tls"].flatMap { readTLS($0, context: "in tls", allowsFiles: true) }
        let pinnedPublicKeys = tls?.pins ?? []
        let environments = fields["environments"].map { readEnvironments($0, apiBaseURL: baseURL) } ?? []
        var defaultEnvironment: String?
        if let node = fields["defaultEnvironment"], let text = string(node) {
            let names = environments.map(\.name)
            if names.contains(text) {
                defaultEnvironment = text
            } else {
                let hint = Suggestion.didYouMean(text, in: names)
                let rest =
                    hint.isEmpty
                    ? (names.isEmpty
                        ? "; there are no environments" : "; environments: " + names.joined(separator: ", ")) : hint
                error("defaultEnvironment '\(text)' names no environment\(rest)", at: node.mark)
            }
        }
        var pagination: Pagination?
        var paginationMark: Mark?
        if let node = fields["pagination"] {
            cursorParameterMarks.removeAll()
            if case .paged(let paged)? = readPagination(node, allowsNone: false) { pagination = paged }
            paginationMark = cursorParameterMarks.last?.mark ?? node.mark
        }
        var cases = ReadCases()
        if let node = fields["cases"] {
            cases = readCases(node, apiAuth: auth?.names, hasAuthProblem: fields.has("auth") && auth == nil)
        } else {
            error(
                "missing required key 'cases' at the top level; add the API's cases, like 'cases: {zen: {path: /zen}}'",
                at: fields.mark)
        }
        caseCount = cases.count
        if checksAcrossCases {
            checkRedirectExpectations(apiRedirects: redirects)
            if caseHandler == nil {
                checkPagingAndChains(cases: cases.kept, apiPagination: pagination, apiPaginationMark: paginationMark)
            } else {
                checkPagingAndChains(cases: cases.digests, apiPagination: pagination, apiPaginationMark: paginationMark)
            }
        }
        let prepareCommand = fields["prepare"].flatMap {
            readProgramArguments($0, what: "prepare", example: "[./sign-request, --key-id, main]")
        }
        guard let name, let baseURL else { return nil }
        var api = APISpec(
            APISpec.Fields(
                name: name, file: file, directory: directory, description: description, baseURL: baseURL,
                headers: headers, auth: auth?.defaultAuth,
                authSchemes: auth?.namedSchemes ?? [],
                validation: validation, timeout: timeout, idleTimeout: idleTimeout, redirects: redirects,
                connectTimeout: connectTimeout, environments: environments,
                defaultEnvironment: defaultEnvironment, cases: cases.kept, sensitiveHeaders: sensitiveHeaders,
                fileRoot: fileRoot,
                pagination: pagination, keepsCookies: keepsCookies, pinnedPublicKeys: pinnedPublicKeys))
        api.prepareCommand = prepareCommand.map { CommandAuthSpec(arguments: $0) }
        api.usesCache = fields["cache"].flatMap { bool($0) } ?? false
        api.tlsFiles = tls?.files ?? APISpec.TLSFiles()
        return api
    }

    /// `tls: {pinnedPublicKeys: [sha256//BASE64, ...]}`: each the base64 SHA-256 of a DER
    /// SubjectPublicKeyInfo, as curl's --pinnedpubkey takes it. A pin only narrows which servers
    /// are accepted, so an untrusted file may carry one. At the top level (`allowsFiles`), also
    /// `crlFile`, `clientCert` and `clientKey`: paths, used from a trusted file only (checked when
    /// a request is built, as for `prepare`).
    mutating func readTLS(_ node: Node, context: String, allowsFiles: Bool = false)
        -> (pins: [String], files: APISpec.TLSFiles)?
    {
        let fileKeys = ["crlFile", "clientCert", "clientKey"]
        guard
            let fields = fields(
                node, allowed: ["pinnedPublicKeys"] + (allowsFiles ? fileKeys : []), context: context,
                expected: allowsFiles
                    ? "a map like {pinnedPublicKeys: [sha256//BASE64], crlFile: ca.crl, clientCert: me.p12, clientKey: me.key}"
                    : "a map like {pinnedPublicKeys: [sha256//BASE64]}")
        else { return nil }
        var files = APISpec.TLSFiles()
        for key in fileKeys {
            guard let node = fields[key], let path = string(node) else { continue }
            guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                error("tls \(key) must be a file path without control characters", at: node.mark)
                continue
            }
            switch key {
            case "crlFile": files.crlFile = path
            case "clientCert": files.clientCertificate = path
            default: files.clientKey = path
            }
        }
        if files.clientKey != nil && files.clientCertificate == nil, let node = fields["clientKey"] {
            error("tls clientKey needs clientCert, the certificate it is the key of", at: node.mark)
        }
        guard let list = fields["pinnedPublicKeys"] else { return ([], files) }
        guard let items = sequence(list, expected: "a list of pins like [sha256//BASE64]") else { return nil }
        var pins: [String] = []
        for item in items {
            guard let pin = string(item) else { continue }
            guard Self.isPublicKeyPin(pin) else {
                error(
                    "invalid public key pin '\(pin)'; a pin is sha256// and the 44-character base64 SHA-256 of the key (curl --pinnedpubkey's form)",
                    at: item.mark)
                continue
            }
            pins.append(pin)
        }
        return (pins, files)
    }

    /// Whether `pin` is `sha256//` and 44 base64 characters (32 bytes).
    package static func isPublicKeyPin(_ pin: String) -> Bool {
        guard pin.hasPrefix("sha256//") else { return false }
        let hash = pin.dropFirst("sha256//".count).utf8
        return hash.count == 44 && hash.last == UInt8(ascii: "=")
            && hash.dropLast().allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "/")
            }
    }

    /// `sensitiveHeaders: [X-Session, ...]`: header names whose values are secrets.
    private mutating func readSensitiveHeaders(_ node: Node) -> Set<String> {
        guard let items = sequence(node, expected: "a list of header names, like [X-Session-Id]") else { return [] }
        var names = Set<String>()
        for item in items {
            guard let name = string(item) else { continue }
            guard Self.isToken(name) else {
                error(
                    "invalid header name '\(name)' in sensitiveHeaders; header names are letters, digits and !#$%&'*+-.^_`|~",
                    at: item.mark)
                continue
            }
            names.insert(name.lowercased())
        }
        return names
    }

    private mutating func readAPIName(_ fields: Fields) -> String? {
        if let node = fields["api"] {
            guard let text = string(node) else { return nil }
            guard Self.isAPIName(text) else {
                error(
                    "invalid API name '\(text)'; an API name starts with a letter and holds letters, digits, '_' and '-'",
                    at: node.mark)
                return nil
            }
            return text
        }
        let baseName = file.split(separator: "/").last.map(String.init) ?? file
        guard let name = Self.defaultAPIName(forFile: file) else {
            error(
                "the file name '\(baseName)' does not make a valid API name; add 'api: NAME' (a letter, then letters, digits, '_' and '-')",
                at: fields.mark)
            return nil
        }
        return name
    }

    /// The API name a file gets without `api:`: its base name without extension, if that is a valid name.
    public static func defaultAPIName(forFile file: String) -> String? {
        let baseName = file.split(separator: "/").last.map(String.init) ?? file
        let stem = baseName.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let name = stem.isEmpty ? baseName : stem
        return isAPIName(name) ? name : nil
    }

    /// A base URL (API or environment): `${VAR}` allowed, no placeholders, checked when literal.
    mutating func readBaseURL(_ node: Node, positionName: String) -> Template? {
        let position = TemplatePosition(name: positionName, placeholderRole: nil, allowsEnvironment: true)
        guard let template = template(node, at: position) else { return nil }
        if let problem = BaseURLCheck.problem(in: template) {
            error(problem, at: node.mark)
            return nil
        }
        return template
    }

    /// `none`, `successCodes`, `successAndRedirectCodes`, or a list of status codes.
    mutating func readValidation(_ node: Node) -> ValidationSpec? {
        if case .sequence(let items, _) = node {
            var codes: [Int] = []
            for item in items {
                guard let code = integer(item) else { continue }
                guard (100...599).contains(code) else {
                    error("status code \(code) is out of range (100...599)", at: item.mark)
                    continue
                }
                codes.append(code)
            }
            return .customCodes(codes)
        }
        guard case .scalar = node else {
            typeError(expected: "none, successCodes, successAndRedirectCodes or a list of status codes", found: node)
            return nil
        }
        switch choice(node, from: ValidationSpec.names, what: "validation") {
        case "none": return ValidationSpec.none
        case "successCodes": return .successCodes
        case "successAndRedirectCodes": return .successAndRedirectCodes
        default: return nil
        }
    }

    /// The longest timeout accepted, in seconds (2^31 - 1 milliseconds): the transport's
    /// `SessionConfiguration.maximumInterval`, written again because the model does not import the
    /// transport; a test of TargetSpec checks that the two agree.
    package static let maximumInterval: Double = 2_147_483

    /// A timeout: a number of seconds greater than zero.
    mutating func positiveNumber(_ node: Node) -> Double? {
        guard let value = number(node) else { return nil }
        guard value > 0 else {
            error("expected a number of seconds greater than 0, found \(Self.describe(node))", at: node.mark)
            return nil
        }
        guard value <= Self.maximumInterval else {
            error("expected at most \(Int(Self.maximumInterval)) seconds, found \(Self.describe(node))", at: node.mark)
            return nil
        }
        return value
    }
}
