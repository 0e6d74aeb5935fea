import ContentDigest
import Foundation

extension HTTPTestServer {
    /// The key `/hmac-signed` checks signatures with.
    public static let signingKey = "loopback-signing-key"

    /// The signature `/hmac-signed` expects: hex HMAC-SHA-256 under `signingKey` of
    /// `METHOD\nPATH\nTIMESTAMP\nhex SHA-256 of the body`.
    public static func expectedSignature(method: String, path: String, timestamp: String, body: Data) -> String {
        let message = "\(method)\n\(path)\n\(timestamp)\n" + SHA256.hexDigest(of: body)
        return HMACSHA256.hex(HMACSHA256.mac(key: Array(signingKey.utf8), message: Array(message.utf8)))
    }

    /// `/hmac-signed[/…]`: 200 `{"verified":true}` when `X-Signature` is `expectedSignature` over the
    /// request's method, path (without the query), `X-Timestamp` and body; else 401 with why.
    func respondSigned(to request: ReceivedRequest, reply: (Int, [(String, String)], Data) -> Bool) -> Bool {
        guard let timestamp = request.value(of: "X-Timestamp"), let signature = request.value(of: "X-Signature")
        else {
            return reply(401, [("Content-Type", "text/plain")], Data("missing X-Timestamp or X-Signature".utf8))
        }
        let expected = Self.expectedSignature(
            method: request.method, path: request.path, timestamp: timestamp, body: request.body)
        guard signature == expected else {
            return reply(401, [("Content-Type", "text/plain")], Data("bad signature".utf8))
        }
        return reply(200, [("Content-Type", "application/json")], Data(#"{"verified":true}"#.utf8))
    }
}
