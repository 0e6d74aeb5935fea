import MoyaKit
import TargetModel
import TargetSpec

/// Every case served, by method and route; built once at start, read by every connection.
struct RouteTable: Sendable {
    private(set) var cases: [ServedCase] = []
    /// The indexes of `cases` by their routes' number of segments: a request is matched against
    /// those of its path's length only, not against every case of a large API.
    private var casesBySegmentCount: [Int: [Int]] = [:]
    /// The token endpoints of the APIs' `oauth2` auth, answered when no case has their route.
    private(set) var tokenEndpoints: [TokenEndpoint] = []
    /// By method, then by path as a client writes it: the cases whose answer no request can
    /// change (no values, a default sample rendered at start, a literal path no other case of
    /// the method matches), found without routing.
    private(set) var fixedRoutes: [String: [String: ServedCase]] = [:]

    /// What a request finds.
    enum Lookup: Sendable {
        /// The case that answers, with its values.
        case found(ServedCase, ServedCase.Binding)
        /// The route's best case refuses a value (wrong type, not one of the enum, missing).
        case badValue(ServedCase, ArgumentError)
        /// An `oauth2` token endpoint (POST).
        case token(TokenEndpoint)
        /// The path is served, not with this method.
        case methodNotAllowed(allowed: [String])
        /// No route has this path: the closest routes, as `METHOD /route (API.case)`.
        case notFound(closest: [String])
        /// The path's percent-escapes are broken.
        case badPath
    }

    /// The cases of the APIs `builders` hold, each under its base URL's path.
    ///
    /// - Throws: `ServeError.routeClash` when cases of two APIs have the same method and route
    ///   shape (cases of one API may share a route: the request's query, body and headers tell
    ///   them apart); `ServeError.baseURL` when a base URL cannot be rendered.
    init(builders: [TargetBuilder]) throws(ServeError) {
        var owners: [String: ServedCase] = [:]
        for builder in builders {
            tokenEndpoints += TokenEndpoint.endpoints(of: builder)
            for spec in builder.api.cases {
                let baseURL: String
                do {
                    baseURL = try builder.baseURL(for: spec).path
                } catch {
                    throw .baseURL(api: builder.api.name, caseName: spec.name, reason: error.description)
                }
                let prefix = PercentEncoding.decoded(baseURL) ?? baseURL
                let served = ServedCase(
                    builder: builder, spec: spec, method: spec.method,
                    route: RoutePattern(prefix: prefix, template: spec.path), sources: ValueSources(spec),
                    credential: CredentialPlace(builder.api.auth(for: spec.auth)),
                    rendered: spec.values.isEmpty ? Self.renderedSamples(of: spec, builder: builder) : [:])
                let key = served.method + " " + served.route.shape
                if let owner = owners[key], owner.builder.api.name != builder.api.name {
                    throw .routeClash(
                        first: owner.qualifiedName, second: served.qualifiedName, file: builder.api.file,
                        route: "\(served.method) \(served.route.display)")
                }
                owners[key] = owners[key] ?? served
                casesBySegmentCount[served.route.segments.count, default: []].append(cases.count)
                cases.append(served)
            }
        }
        for served in cases where served.rendered[""] != nil {
            guard let path = served.route.literalPath,
                path.allSatisfy({ $0.utf8.allSatisfy(Self.isWrittenAsIs) }),
                (casesBySegmentCount[path.count] ?? []).filter({
                    cases[$0].method == served.method && cases[$0].route.match(path) != nil
                }).count == 1
            else { continue }
            fixedRoutes[served.method, default: [:]]["/" + path.joined(separator: "/")] = served
        }
    }

    /// A byte a client writes in a path as it is, unescaped (RFC 3986 unreserved).
    private static func isWrittenAsIs(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The case that answers `request`: among the cases of its method and route, the first that
    /// binds its values without error and fits best (query, body and headers it reads).
    ///
    /// HEAD is GET without the body (RFC 9110, 9.3.2): a route GET serves answers HEAD as GET
    /// unless a case of its own says otherwise.
    func lookup(_ request: ServeRequest) -> Lookup {
        let found = lookup(request, method: request.method)
        if request.method == "HEAD", case .methodNotAllowed(let allowed) = found, allowed.contains("GET") {
            return lookup(request, method: "GET")
        }
        return found
    }

    /// The methods served at `request`'s path, in the order the cases declare them (`HEAD` after
    /// them when `GET` is one); `nil` when no route has the path. What a CORS preflight allows.
    func methods(servedAt request: ServeRequest) -> [String]? {
        guard let path = request.pathSegments else { return nil }
        var methods: [String] = []
        for index in casesBySegmentCount[path.count] ?? [] where cases[index].route.match(path) != nil {
            if !methods.contains(cases[index].method) { methods.append(cases[index].method) }
        }
        if tokenEndpoints.contains(where: { $0.path == path }), !methods.contains("POST") { methods.append("POST") }
        if methods.contains("GET"), !methods.contains("HEAD") { methods.append("HEAD") }
        return methods.isEmpty ? nil : methods
    }

    private func lookup(_ request: ServeRequest, method: String) -> Lookup {
        guard let path = request.pathSegments else { return .badPath }
        var best: (served: ServedCase, binding: ServedCase.Binding)?
        var allowed: [String] = []
        for index in casesBySegmentCount[path.count] ?? [] {
            let served = cases[index]
            guard let values = served.route.match(path) else { continue }
            guard served.method == method else {
                if !allowed.contains(served.method) { allowed.append(served.method) }
                continue
            }
            let binding = served.bind(request, pathValues: values)
            if let current = best?.binding {
                let better =
                    (binding.error == nil) != (current.error == nil)
                    ? binding.error == nil : binding.score > current.score
                if !better { continue }
            }
            best = (served, binding)
        }
        if let best {
            if let error = best.binding.error { return .badValue(best.served, error) }
            return .found(best.served, best.binding)
        }
        if let endpoint = tokenEndpoints.first(where: { $0.path == path }) {
            if method == "POST" { return .token(endpoint) }
            allowed.append("POST")
        }
        if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
        if !allowed.isEmpty { return .methodNotAllowed(allowed: allowed) }
        return .notFound(closest: closest(to: path, method: method))
    }

    /// The responses of the samples of `spec` (a case without values) that are neither error
    /// samples nor read from a file, by name, the default also under `""`.
    private static func renderedSamples(of spec: CaseSpec, builder: TargetBuilder) -> [String: ServeResponse] {
        var rendered: [String: ServeResponse] = [:]
        for named in spec.samples {
            guard case .response(_, _, let body) = named.sample.outcome else { continue }
            if case .file = body { continue }
            guard
                case .response(let status, let headers, let bytes)? = try? builder.renderedSample(
                    of: spec, named: named.name, arguments: [:]
                ).sample
            else { continue }
            var response = ServeResponse(
                status: status, headers: headers.compactMap(ServeResponder.safeHeader), body: Array(bytes))
            response.prepared = PreparedResponse(response)
            rendered[named.name] = response
        }
        if spec.samples.isEmpty {
            var response = ServeResponse(status: 200, headers: [], body: [])
            response.prepared = PreparedResponse(response)
            rendered[""] = response
        } else if let first = spec.defaultSample?.name {
            rendered[""] = rendered[first]
        }
        return rendered
    }

    /// Up to three routes nearest `path` by edit distance, values standing for any segment; those
    /// of `method` first among equals.
    private func closest(to path: [String], method: String) -> [String] {
        let written = "/" + path.joined(separator: "/")
        let limit = max(3, written.count / 2)
        var ranked: [(distance: Int, entry: String)] = []
        for served in cases {
            let segments = served.route.segments.enumerated().map { index, pieces -> String in
                if pieces.count == 1, case .literal(let text) = pieces[0] { return text }
                return index < path.count ? path[index] : "{}"
            }
            var distance = Suggestion.editDistance(written, "/" + segments.joined(separator: "/"))
            if served.method != method { distance += 1 }
            guard distance <= limit else { continue }
            let entry = "\(served.method) \(served.route.display) (\(served.qualifiedName))"
            if !ranked.contains(where: { $0.entry == entry }) { ranked.append((distance, entry)) }
        }
        return ranked.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
            .prefix(3).map(\.element.entry)
    }
}
