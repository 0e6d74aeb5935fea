import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request ready to be sent: the counterpart of Foundation's `URLRequest`, which Linux only
/// has in FoundationNetworking. Property names follow Foundation's so Moya code reads the same.
public struct URLRequest: Sendable, Hashable {
    /// The URL of the request.
    public var url: URL?
    /// The HTTP method, e.g. `"GET"`.
    public var httpMethod: String?
    /// The header fields, in order, case-insensitive.
    public var headers: HTTPFields
    /// The body sent from memory.
    public var httpBody: Data?
    /// A file whose contents are streamed as the body (`Task.uploadFile`).
    public var bodyFileURL: URL?
    /// Parts sent as `multipart/form-data` (`Task.uploadMultipart...`).
    public var multipartParts: [MultipartFormBodyPart]?
    /// The idle timeout of the request, in seconds, as Foundation's: the longest it may go
    /// without a byte sent or received (`SessionConfiguration.idleTimeout`: the tighter wins).
    public var timeoutInterval: TimeInterval
    /// Lowercased names of headers that carry a secret here, beyond `SensitiveHeaders.defaultNames`
    /// (a header built from a secret, say). See `SensitiveHeaders`.
    public var sensitiveHeaderNames: Set<String> = []
    /// The paths among `bodyFileURL` and the multipart files that may be read as streams (a pipe,
    /// a FIFO, a terminal: what a user named as `-` or `/dev/stdin`): read as they are sent and
    /// sent with no size, chunked over HTTP/1.1. Any other file must be a regular one.
    public var streamedFilePaths: Set<String> = []
    /// A user name and password given only when the server challenges with `Digest` (RFC 7616:
    /// MD5 or SHA-256, `qop=auth`): libcurl sends the request, reads the 401's challenge and
    /// sends it again with the answer, never to another host a redirect leads to.
    public var digestCredential: DigestCredential?

    /// Creates a request for `url` with no body and the `GET` method.
    public init(url: URL, timeoutInterval: TimeInterval = 0) {
        self.url = url
        self.httpMethod = "GET"
        self.headers = HTTPFields()
        self.timeoutInterval = timeoutInterval
    }

    /// The header fields as a dictionary; setting replaces all of them.
    public var allHTTPHeaderFields: [String: String]? {
        get {
            var fields: [String: String] = [:]
            for field in headers {
                if let existing = fields[field.name.canonicalName] {
                    fields[field.name.canonicalName] = existing + ", " + field.value
                } else {
                    fields[field.name.canonicalName] = field.value
                }
            }
            return fields
        }
        set {
            let sorted = (newValue ?? [:]).sorted(by: { $0.key < $1.key })
            // The fields in name order. When no two names are one name (`Accept`, `accept`), they
            // are made at once: setting them one by one looked each up in the fields set so far,
            // a third of making a stubbed request.
            var fields: [HTTPField] = []
            fields.reserveCapacity(sorted.count)
            for (name, value) in sorted {
                guard let fieldName = HTTPField.Name(name) else { continue }
                if fields.contains(where: { $0.name == fieldName }) {
                    // A name given twice: the later value replaces the earlier, as setValue does.
                    headers = HTTPFields()
                    for (name, value) in sorted { setValue(value, forHTTPHeaderField: name) }
                    return
                }
                fields.append(HTTPField(name: fieldName, value: value))
            }
            headers = HTTPFields(fields)
        }
    }

    /// Sets a header, replacing any field of that name; `nil` removes it.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) {
        guard let name = HTTPField.Name(field) else { return }
        headers[name] = value
    }

    /// The value of a header field, fields of the same name joined with `", "`.
    public func value(forHTTPHeaderField field: String) -> String? {
        guard let name = HTTPField.Name(field) else { return nil }
        return headers[name]
    }
}

/// A user name and password for HTTP Digest authentication (`URLRequest.digestCredential`).
public struct DigestCredential: Sendable, Hashable {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates a credential.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
