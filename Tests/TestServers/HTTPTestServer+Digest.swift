import ContentDigest
import Foundation

extension HTTPTestServer {
    /// `/digest-auth/auth/USER/PASS/ALGORITHM[/stale]`, after httpbin.org's: HTTP Digest
    /// authentication (RFC 7616) with `qop=auth` and `algorithm=MD5` or `SHA-256`. Without an
    /// answer, or with a wrong one, 401 and the challenge; with the right one, 200
    /// `{"authenticated":true,"user":USER}`. With `/stale`, the first nonce (`old-nonce`) is
    /// answered once more with `stale=true` and a fresh nonce, as a server whose nonce expired.
    func respondDigest(
        to request: ReceivedRequest, segments: [String], reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        guard segments.count >= 5, segments[1] == "auth", ["MD5", "SHA-256"].contains(segments[4]) else {
            return reply(400, [], Data())
        }
        let (user, password, algorithm) = (segments[2], segments[3], segments[4])
        let realm = "moya@test"
        let staleOnce = segments.count > 5 && segments[5] == "stale"
        let firstNonce = staleOnce ? "old-nonce" : "the-nonce"
        func challenge(nonce: String, stale: Bool) -> Bool {
            let field =
                #"Digest realm="\#(realm)", qop="auth", algorithm=\#(algorithm), nonce="\#(nonce)", opaque="0paque""#
                + (stale ? ", stale=true" : "")
            return reply(
                401, [("WWW-Authenticate", field), ("Content-Type", "application/json")],
                Data(#"{"authenticated":false}"#.utf8))
        }
        guard let authorization = request.value(of: "Authorization"), authorization.hasPrefix("Digest ") else {
            return challenge(nonce: firstNonce, stale: false)
        }
        let fields = Self.digestFields(String(authorization.dropFirst("Digest ".count)))
        let hash = { (text: String) in
            algorithm == "MD5" ? MD5.hexDigest(of: Array(text.utf8)) : SHA256.hexDigest(of: Array(text.utf8))
        }
        guard let nonce = fields["nonce"], let nc = fields["nc"], let cnonce = fields["cnonce"],
            fields["qop"] == "auth",
            fields["username"] == user, fields["realm"] == realm, let uri = fields["uri"], uri == request.target,
            fields["opaque"] == "0paque", (fields["algorithm"] ?? "MD5").uppercased() == algorithm
        else { return challenge(nonce: firstNonce, stale: false) }
        let expected = hash(
            [hash("\(user):\(realm):\(password)"), nonce, nc, cnonce, "auth", hash("\(request.method):\(uri)")]
                .joined(separator: ":"))
        guard fields["response"] == expected else { return challenge(nonce: firstNonce, stale: false) }
        if staleOnce && nonce == "old-nonce" { return challenge(nonce: "fresh-nonce", stale: true) }
        guard nonce == (staleOnce ? "fresh-nonce" : "the-nonce") else {
            return challenge(nonce: firstNonce, stale: false)
        }
        return reply(
            200, [("Content-Type", "application/json")], Data(#"{"authenticated":true,"user":"\#(user)"}"#.utf8))
    }

    /// The `name=value` pairs of a Digest `Authorization` field, values unquoted.
    static func digestFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    if character == "\\" { rest = rest.dropFirst() }
                    if let next = rest.first { value.append(next) }
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
            } else {
                value = String(rest.prefix { $0 != "," }).trimmingCharacters(in: .whitespaces)
                rest = rest.drop { $0 != "," }
            }
            fields[name] = value
        }
        return fields
    }
}
