import ContentDigest
import TargetSpec

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`), the header form: the canonical request, the
/// string to sign, the signing key derived from the secret key, date, region and service, and the
/// headers that carry the signature. Checked against the AWS SigV4 test suite's vectors
/// (Tests/SendingTests/Fixtures/sigv4-vectors.json).
///
/// The path is taken as sent (percent-encoded once) and encoded once more for every service
/// but S3, as AWS's own signers do; S3 signs it as sent. The query's names and values are
/// decoded and encoded again with SigV4's unreserved set, and sorted.
package struct AWSSigV4Signer: Sendable {
    /// The payload hash for a body that is not hashed (a multipart form the transport builds).
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"

    package var credential: AWSSigV4Credential

    package init(credential: AWSSigV4Credential) {
        self.credential = credential
    }

    /// The request to sign.
    package struct Request: Sendable {
        package var method: String
        /// The whole URL as sent.
        package var url: String
        /// The headers signed (beyond `host` and the `x-amz-*` ones the signer adds), as sent.
        package var headers: [(name: String, value: String)]
        /// The body's SHA-256 in hex, or `unsignedPayload`.
        package var payloadHash: String

        package init(method: String, url: String, headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.url = url
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The headers to add to `request` to sign it at `seconds` since 1970: `X-Amz-Date`,
    /// `X-Amz-Security-Token` with a session token, `X-Amz-Content-Sha256` when
    /// `sendsContentHash` (S3 requires it), and `Authorization`, last.
    package func signatureHeaders(for request: Request, at seconds: Int, sendsContentHash: Bool) -> [(
        name: String, value: String
    )] {
        let date = DynamicValues.basicISODate(seconds)
        var added: [(name: String, value: String)] = [("X-Amz-Date", date)]
        if let token = credential.sessionToken { added.append(("X-Amz-Security-Token", token)) }
        if sendsContentHash { added.append(("X-Amz-Content-Sha256", request.payloadHash)) }
        var signed = request
        signed.headers += added
        return added + [("Authorization", authorization(for: signed, date: date))]
    }

    /// The `Authorization` value for `request`, whose headers include `X-Amz-Date: date`.
    package func authorization(for request: Request, date: String) -> String {
        let (canonical, signedHeaders) = canonicalRequest(request)
        let day = String(date.prefix(8))
        let scope = "\(day)/\(credential.region)/\(credential.service)/aws4_request"
        let stringToSign = "AWS4-HMAC-SHA256\n\(date)\n\(scope)\n" + SHA256.hexDigest(of: Array(canonical.utf8))
        var key = HMACSHA256.mac(key: Array(("AWS4" + credential.secretKey).utf8), message: Array(day.utf8))
        for part in [credential.region, credential.service, "aws4_request"] {
            key = HMACSHA256.mac(key: key, message: Array(part.utf8))
        }
        let signature = HMACSHA256.hex(HMACSHA256.mac(key: key, message: Array(stringToSign.utf8)))
        return "AWS4-HMAC-SHA256 Credential=\(credential.accessKey)/\(scope), SignedHeaders=\(signedHeaders), "
            + "Signature=\(signature)"
    }

    /// `path` with its `.` and `..` segments removed and runs of `/` made one, keeping a final `/`
    /// (`/example/..` → `/`, `//example//` → `/example/`, `/./example` → `/example`).
    static func normalizedPath(_ path: String) -> String {
        var kept: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !kept.isEmpty { kept.removeLast() }
            default: kept.append(segment)
            }
        }
        let joined = "/" + kept.joined(separator: "/")
        let endsInFolder = path.hasSuffix("/") || path.hasSuffix("/.") || path.hasSuffix("/..")
        return endsInFolder && joined != "/" ? joined + "/" : joined
    }

    /// The canonical request and the signed header names joined with `;`.
    package func canonicalRequest(_ request: Request) -> (text: String, signedHeaders: String) {
        let parts = URLParts(request.url)
        var path = parts.path.isEmpty ? "/" : parts.path
        // Every service but S3 signs the path normalised, as libcurl sends it (without
        // `--path-as-is`) and as AWS checks it: the suite's `*-normalized` vectors.
        if credential.service != "s3" { path = Self.encoded(Self.normalizedPath(path), keepingSlash: true) }
        var pairs: [(name: String, value: String)] = []
        for pair in parts.query.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.encoded(Self.decoded(String(halves[0])), keepingSlash: false)
            let value = halves.count > 1 ? Self.encoded(Self.decoded(String(halves[1])), keepingSlash: false) : ""
            pairs.append((name, value))
        }
        pairs.sort { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let query = pairs.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")

        var values: [String: [String]] = ["host": [parts.host]]
        for header in request.headers {
            values[header.name.lowercased(), default: []].append(Self.trimmed(header.value))
        }
        let names = values.keys.sorted()
        let headerLines = names.map { "\($0):\(values[$0, default: []].joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let text = [request.method, path, query, headerLines, signedHeaders, request.payloadHash].joined(
            separator: "\n")
        return (text, signedHeaders)
    }

    /// A header value with its ends trimmed and runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// `text`'s bytes percent-encoded but SigV4's unreserved characters (and `/` when kept).
    static func encoded(_ text: String, keepingSlash: Bool) -> String {
        var result: [UInt8] = []
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.append(byte)
            case UInt8(ascii: "/") where keepingSlash:
                result.append(byte)
            default:
                result += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `text` with its `%XX` escapes decoded (a malformed one kept as written).
    static func decoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A URL's host (as the Host header has it: with a port that is not the scheme's default),
    /// path and query, as written.
    struct URLParts {
        var host = ""
        var path = ""
        var query = ""

        init(_ url: String) {
            var rest = Substring(url)
            var scheme = ""
            if let separator = rest.firstRange(of: "://") {
                scheme = rest[..<separator.lowerBound].lowercased()
                rest = rest[separator.upperBound...]
            }
            if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            var host = authority.lowercased()
            if scheme == "https" && host.hasSuffix(":443") { host.removeLast(4) }
            if scheme == "http" && host.hasSuffix(":80") { host.removeLast(3) }
            self.host = host
            rest = rest[authorityEnd...]
            if let mark = rest.firstIndex(of: "?") {
                path = String(rest[..<mark])
                query = String(rest[rest.index(after: mark)...])
            } else {
                path = String(rest)
            }
        }
    }
}
