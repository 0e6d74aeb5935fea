import MoyaKit
import OrderedJSON
import TargetModel
import TargetSpec

/// Turns a request into an answer: the route's case, its values, the sample chosen, rendered as
/// `--stub` renders it; JSON errors for what cannot be answered.
struct ServeResponder: Sendable {
    var routes: RouteTable
    /// `--sample NAME`: the sample every case that has it answers with by default.
    var defaultSample: String?
    /// The longest a `timeout` sample holds a request, whatever the case's timeout.
    var maximumHold: Double = 30
    /// The served files' secrets (`ServedSecrets`), hidden from what answers name of the routes:
    /// a base URL's path may hold one.
    var redactor = SecretRedactor(secretValues: [])
    /// A case whose auth is not `none` answers 401 to a request without its credential
    /// (`--no-auth`: off).
    var checksCredentials = true
    /// A body is checked against its case's declaration: 400, 422 (`--no-validate`: off).
    var checksBodies = true
    /// `--proxy`: what no case answers, and a declared case asked with `Prefer: proxy`, is forwarded.
    var proxies = false

    /// The answer of a case no request can change (`RouteTable.fixedRoutes`) to `method` at
    /// `target` (path and query as sent), and the case, for the log; `nil` when the request must
    /// be routed: another target, a query, a `Prefer` header, `--sample`.
    func fixedAnswer(method: String, target: String, prefers: Bool) -> (ServeResponse, caseName: String)? {
        guard defaultSample == nil, !prefers, let served = routes.fixedRoutes[method]?[target],
            let response = served.rendered[""], !checksCredentials || served.credential == nil
        else { return nil }
        return (response, served.qualifiedName)
    }

    /// The answer, and the case that gave it (`API.case`), for the log.
    func answer(_ request: ServeRequest) -> (ServeAnswer, caseName: String?) {
        switch routes.lookup(request) {
        case .badPath:
            return (.response(Self.error(400, ["error": "the path's percent-escapes are broken"])), nil)
        case .notFound where proxies, .methodNotAllowed where proxies:
            return (.forward(Self.forwarded(request, declaredCase: nil)), nil)
        case .found(let served, _) where proxies && prefersProxy(request),
            .badValue(let served, _) where proxies && prefersProxy(request):
            return (
                .forward(Self.forwarded(request, declaredCase: (served.builder.api.name, served.spec.name))),
                served.qualifiedName
            )
        case .notFound(let closest):
            var fields: [(String, JSONValue)] = [
                ("error", .string(redactor.redact("no case answers \(request.method) \(request.rawPath)")))
            ]
            fields.append(("closest", .array(closest.map { .string(redactor.redact($0)) })))
            return (.response(Self.json(404, .object(fields))), nil)
        case .methodNotAllowed(let allowed):
            var response = Self.error(
                405,
                ["error": "\(request.method) is not served at this path; allowed: \(allowed.joined(separator: ", "))"])
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return (.response(response), nil)
        case .badValue(let served, let error):
            if let refusal = refusal(of: request, by: served) { return (.response(refusal), served.qualifiedName) }
            let kind = if case .missingValue = error { "missing value" } else { "invalid value" }
            var fields: [(String, JSONValue)] = [("error", .string(kind))]
            if let name = error.valueName { fields.append(("value", .string(name))) }
            fields += [("reason", .string(error.description)), ("case", .string(served.qualifiedName))]
            return (.response(Self.json(400, .object(fields))), served.qualifiedName)
        case .token(let endpoint):
            return (.response(endpoint.response), "\(endpoint.apiName) (token endpoint)")
        case .found(let served, let binding):
            if let refusal = refusal(of: request, by: served) { return (.response(refusal), served.qualifiedName) }
            return (answer(served, arguments: binding.arguments, request: request), served.qualifiedName)
        }
    }

    private func prefersProxy(_ request: ServeRequest) -> Bool {
        request.header("prefer").map { SamplePreference(header: $0).proxy } ?? false
    }

    /// `request` as the live API gets it.
    static func forwarded(_ request: ServeRequest, declaredCase: (api: String, caseName: String)?) -> ForwardedRequest {
        ForwardedRequest(
            method: request.method, path: request.rawPath, query: request.rawQuery,
            headers: request.headers.filter { !ForwardedRequest.notForwarded.contains($0.name.lowercased()) },
            body: request.body, declaredCase: declaredCase)
    }

    /// The answer to a CORS preflight from `origin` (`OPTIONS` with `Access-Control-Request-Method`):
    /// 204 with the methods served at its path; 403 for an origin `--cors-origin` does not name;
    /// for a path no case serves, what a request there gets (404).
    func preflight(_ request: ServeRequest, origin: String, cors: CORSPolicy) -> ServeResponse {
        guard cors.allows(origin) else {
            var response = Self.error(403, ["error": "this origin may not call the mock (see --cors-origin)"])
            response.logReason = "preflight from an origin not allowed"
            return response
        }
        guard let methods = routes.methods(servedAt: request) else {
            if proxies {
                // Whatever the live API serves there: the method asked for.
                let asked = request.header("access-control-request-method").map { [$0] } ?? []
                var response = CORSPolicy.preflight(
                    methods: asked.filter { $0.utf8.allSatisfy(Self.isTokenByte) },
                    requestedHeaders: request.header("access-control-request-headers"))
                response.logReason = "preflight"
                return response
            }
            if case .response(let response) = answer(request).0 { return response }
            return Self.error(404, ["error": "no case answers \(request.method) \(request.rawPath)"])
        }
        var response = CORSPolicy.preflight(
            methods: methods, requestedHeaders: request.header("access-control-request-headers"))
        response.logReason = "preflight"
        return response
    }

    /// What the request checks answer instead of a sample: 401 without the case's credential
    /// (first, as a server asks who calls before reading what is sent), then 400 or 422 for a
    /// body at fault (`RequestCheck`).
    private func refusal(of request: ServeRequest, by served: ServedCase) -> ServeResponse? {
        if checksCredentials, var problem = RequestCheck.credentialProblem(of: served, request: request) {
            problem.headers = problem.headers.compactMap(Self.safeHeader)
            return problem
        }
        return checksBodies ? RequestCheck.bodyProblem(of: served, request: request) : nil
    }

    private func answer(_ served: ServedCase, arguments: [String: ArgumentValue], request: ServeRequest) -> ServeAnswer
    {
        let preference = request.header("prefer").map { SamplePreference(header: $0) }
        // A case without values, asked for its default: rendered at start.
        if preference == nil, defaultSample == nil, let response = served.rendered[""] { return .response(response) }
        let name: String?
        switch (preference ?? SamplePreference(header: nil)).choice(for: served.spec, serverDefault: defaultSample) {
        case .sample(let chosen):
            name = chosen
        case .unknownExample(let example, let available):
            return .response(
                Self.json(
                    404,
                    .object([
                        ("error", .string("case '\(served.qualifiedName)' has no sample named '\(example)'")),
                        ("samples", .array(available.map { .string($0) }))
                    ])))
        case .unknownCode(let code, let available):
            return .response(
                Self.json(
                    404,
                    .object([
                        ("error", .string("case '\(served.qualifiedName)' has no sample with status \(code)")),
                        ("statuses", .array(available.map { .int($0) }))
                    ])))
        }
        if let error = Self.errorKind(of: served.spec, named: name) {
            switch error {
            case .timeout:
                // A client gives up at the first of its limits: the idle one, or a total one if set.
                let api = served.builder.api
                let idle = served.spec.idleTimeout ?? api.idleTimeout
                let total = served.spec.timeout ?? api.timeout ?? idle
                return .hold(seconds: min(idle, total, maximumHold))
            case .cannotConnect, .connectionReset:
                return .close(reset: true)
            case .tooManyRedirects:
                let location = request.rawPath + (request.rawQuery.map { "?" + $0 } ?? "")
                return .response(ServeResponse(status: 307, headers: [("Location", location)], body: []))
            case .cannotResolveHost, .tls:
                return .close(reset: false)
            }
        }
        if let response = served.rendered[name ?? ""] { return .response(response) }
        do {
            let rendered = try served.builder.renderedSample(of: served.spec, named: name, arguments: arguments)
            guard case .response(let status, let headers, let body) = rendered.sample else {
                return .close(reset: false)
            }
            return .response(
                ServeResponse(status: status, headers: headers.compactMap(Self.safeHeader), body: Array(body)))
        } catch {
            var response = Self.json(
                500,
                .object([
                    ("error", .string("the sample of '\(served.qualifiedName)' cannot be rendered")),
                    ("reason", .string(Self.clientReason(error)))
                ]))
            response.logReason = error.description
            return .response(response)
        }
    }

    /// Why a sample could not be rendered, as a client is told it: never a path on this machine,
    /// and one reason for a file missing, unreadable, not regular or outside the folder, so a
    /// client's value in a sample's `file:` cannot tell which files exist. The whole reason is
    /// logged (`ServeResponse.logReason`).
    static func clientReason(_ error: TargetBuildError) -> String {
        switch error {
        case .unreadableFile, .notRegularFile, .outsideFolder:
            "its file cannot be read: no readable file of that name in the target file's folder"
        case .render(let renderError, _): renderError.description
        case .lookup, .invalidBaseURL, .lineBreakInField, .hiddenDownloadDestination, .destinationValueAddsFolder,
            .accessToken, .untrustedTLSFiles:
            "see the server's log"
        }
    }

    /// The network error the sample `name` (default: the first) of `spec` stands for, if it is one.
    private static func errorKind(of spec: CaseSpec, named name: String?) -> SampleErrorKind? {
        let named = name.flatMap { name in spec.samples.first { $0.name == name } } ?? spec.defaultSample
        guard case .networkError(let kind)? = named?.sample.outcome else { return nil }
        return kind
    }

    /// A header from a sample as it may be written: a name that is an HTTP token, a value
    /// without control characters but tab (a client's value rendered into it could hold CR
    /// and LF, or a terminal escape); framing
    /// headers (`Content-Length`, `Transfer-Encoding`, `Connection`) are the server's to write.
    static func safeHeader(_ header: (name: String, value: String)) -> (name: String, value: String)? {
        let name = header.name
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { return nil }
        if ["transfer-encoding", "connection", "content-length"].contains(name.lowercased()) { return nil }
        let value = String(
            String.UnicodeScalarView(
                header.value.unicodeScalars.map { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F ? " " : $0 }))
        return (name, value)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `{"error": MESSAGE}` with `status`.
    static func error(_ status: Int, _ fields: KeyValuePairs<String, String>) -> ServeResponse {
        json(status, .object(fields.map { ($0.key, .string($0.value)) }))
    }

    static func json(_ status: Int, _ value: JSONValue) -> ServeResponse {
        ServeResponse(
            status: status, headers: [("Content-Type", "application/json")],
            body: value.serializedBytes() + [UInt8(ascii: "\n")])
    }
}
