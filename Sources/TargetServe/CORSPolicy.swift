/// Cross-origin resource sharing (the Fetch standard's CORS protocol) as `serve` answers it, on by
/// default: a page on another origin (a front-end's development server) may call the mock.
///
/// Every answer to an allowed origin echoes it in `Access-Control-Allow-Origin` with
/// `Access-Control-Allow-Credentials: true` (never `*` then: a browser refuses `*` for a request
/// with cookies or an Authorization header); an answer to a request without `Origin` says `*`.
/// A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) of a served route is
/// answered 204 with the route's methods, the headers asked for and `Access-Control-Max-Age`.
package struct CORSPolicy: Sendable {
    /// `--cors-origin`: the origins allowed, lowercased (`http://localhost:3000`); empty: any.
    package var allowedOrigins: [String]
    /// How long a browser may keep a preflight's answer, in seconds.
    package static let maximumAge = 600

    package init(allowedOrigins: [String] = []) {
        self.allowedOrigins = allowedOrigins.map { $0.lowercased() }
    }

    /// The header lines every answer carries for a request whose `Origin` is `origin` (`nil`: none
    /// sent), each ended by CRLF; `nil` for an origin not allowed (the browser keeps the answer
    /// from the page). Computed for each request; the common lines are written once.
    func lines(origin: String?) -> String? {
        guard let origin else { return allowedOrigins.isEmpty ? Self.anyOriginLines : nil }
        guard allows(origin) else { return nil }
        return "Access-Control-Allow-Origin: \(origin)\r\n" + Self.credentialLines
    }

    /// Whether `origin` may call: one of `--cors-origin`, or any when none was given. An origin
    /// that is not one visible ASCII token (no spaces, no control bytes) is never echoed.
    func allows(_ origin: String) -> Bool {
        guard !origin.isEmpty, origin.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }) else {
            return false
        }
        return allowedOrigins.isEmpty || allowedOrigins.contains(origin.lowercased())
    }

    private static let anyOriginLines = "Access-Control-Allow-Origin: *\r\nVary: Origin\r\n"
    private static let credentialLines = "Access-Control-Allow-Credentials: true\r\nVary: Origin\r\n"

    /// The answer to a preflight for a route served with `methods`, asking to send
    /// `requestedHeaders` (`Access-Control-Request-Headers`): 204, the origin's lines added when
    /// written (`lines(origin:)`).
    static func preflight(methods: [String], requestedHeaders: String?) -> ServeResponse {
        var headers: [(name: String, value: String)] = [
            ("Access-Control-Allow-Methods", methods.joined(separator: ", "))
        ]
        if let requested = requestedHeaders.flatMap(headerList) {
            headers.append(("Access-Control-Allow-Headers", requested))
        }
        headers.append(("Access-Control-Max-Age", String(maximumAge)))
        return ServeResponse(status: 204, headers: headers, body: [])
    }

    /// `Access-Control-Request-Headers` as it may be echoed: a list of header names (tokens),
    /// lowercased as browsers send them; `nil` when empty or not such a list.
    static func headerList(_ value: String) -> String? {
        let names = value.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        guard !names.isEmpty,
            names.allSatisfy({ name in !name.isEmpty && name.utf8.allSatisfy(ServeResponder.isTokenByte) })
        else { return nil }
        return names.joined(separator: ", ")
    }

    /// The names of `headers` a page's script may read (`Access-Control-Expose-Headers`): all but
    /// the CORS-safelisted ones a browser shows anyway; `nil` when none is left.
    static func exposedNames(of headers: [(name: String, value: String)]) -> String? {
        var names: [String] = []
        for header in headers {
            let lowercased = header.name.lowercased()
            guard !safelisted.contains(lowercased), !lowercased.hasPrefix("access-control-"),
                !names.contains(where: { $0.lowercased() == lowercased })
            else { continue }
            names.append(header.name)
        }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    private static let safelisted: Set<String> = [
        "cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"
    ]
}
