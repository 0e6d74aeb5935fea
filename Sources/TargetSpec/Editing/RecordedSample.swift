import MoyaKit
import OrderedJSON
import TargetModel

/// A live response made into a case's sample (`--record`): its status, its content type, its
/// body (`json:` when it is JSON, `text:` when it is UTF-8 text, else a file beside the target
/// file) and, when asked, its other headers — with every secret left out.
///
/// What is written renders back to exactly what was received: `{`, `}` and `${` in the body's
/// strings and in header values are escaped, so nothing becomes a placeholder.
package struct RecordedSample: Sendable, Equatable {
    /// A response header as received.
    package struct Field: Sendable, Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package var status: Int
    /// The response's headers in the order received (`Content-Type` among them).
    package var headers: [Field]
    package var body: [UInt8]

    package init(status: Int, headers: [Field] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The largest body written into the target file; a larger one goes to a file beside it.
    package static let maximumInlineBytes = SampleBody.maximumInlineBytes
    /// What replaces a secret in a recorded body or header.
    package static let secretPlaceholder = SecretRedactor.defaultPlaceholder
    /// Headers never recorded: they describe one transfer (length, encoding, connection, date) or
    /// carry credentials (the sensitive names of ``SecretRedactor`` and every `Proxy-` header).
    static let droppedHeaders: Set<String> = [
        "content-type", "content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive",
        "date", "www-authenticate", "proxy-authenticate"
    ]

    /// The sample as YAML, and the file to write beside the target file when the body goes there.
    package struct Rendered: Sendable {
        package var value: YAMLText
        /// The file's path relative to the target file's folder, and its bytes.
        package var file: (path: String, bytes: [UInt8])?
    }

    /// What to keep and what to hide.
    package struct Policy: Sendable {
        /// `--record-headers`: keep the headers other than ``droppedHeaders`` and sensitive ones.
        package var recordsHeaders = false
        /// Values never written: resolved `${secret:...}` references and credentials.
        package var secretValues: [String] = []
        /// Lowercased names of the headers that carry secrets beyond the defaults (the API's
        /// `sensitiveHeaders`).
        package var sensitiveHeaderNames: Set<String> = []

        package init(recordsHeaders: Bool = false, secretValues: [String] = [], sensitiveHeaderNames: Set<String> = [])
        {
            self.recordsHeaders = recordsHeaders
            self.secretValues = secretValues
            self.sensitiveHeaderNames = sensitiveHeaderNames
        }
    }

    /// The sample as written for the sample `fileStem` (`samples/API/CASE[.NAME]`, the body's
    /// file without its extension).
    package func rendered(policy: Policy, fileStem: String) -> Rendered {
        let redactor = SecretRedactor(sensitiveHeaderNames: [], secretValues: policy.secretValues)
        let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value
        var members: [YAMLText.Entry] = [YAMLText.Entry("status", .int(status))]
        var headerEntries: [YAMLText.Entry] = []
        var body: YAMLText.Entry?
        var file: (path: String, bytes: [UInt8])?
        let text = String(validating: self.body, as: UTF8.self).map(redactor.redact)
        var bytes = text.map { Array($0.utf8) } ?? Self.replacingSecrets(in: self.body, policy.secretValues)
        var json = SampleBody.isJSON(contentType) ? text.flatMap { try? JSONValue(parsing: $0) } : nil
        if let received = json {
            json = SampleBody.hidingCredentials(received)
            if json != received, let hidden = json { bytes = hidden.serializedBytes() }
        }
        if bytes.isEmpty {
            body = nil
        } else if SampleBody.belongsInFile(byteCount: bytes.count, isText: text != nil, isJSON: json != nil)
            || json.map(SampleBody.fitsInline) == false
        {
            let path = fileStem + "." + SampleBody.fileExtension(contentType, isText: text != nil, isJSON: json != nil)
            file = (path, bytes)
            body = YAMLText.Entry("file", .string(NewCase.literal(path)))
        } else if let json {
            body = YAMLText.Entry("json", NewCase.yaml(json))
        } else if let text {
            body = YAMLText.Entry("text", .string(NewCase.literal(text)))
        }
        // A `json:` sample is served as application/json unless it says otherwise.
        if let contentType, body?.key != "json" || contentType != "application/json" {
            headerEntries.append(header("Content-Type", contentType, redactor))
        }
        if policy.recordsHeaders {
            let sensitive = SecretRedactor.defaultSensitiveHeaderNames.union(policy.sensitiveHeaderNames)
            var seen: [String: Int] = [:]
            for field in headers {
                let name = field.name.lowercased()
                guard !Self.droppedHeaders.contains(name), !sensitive.contains(name), !name.hasPrefix("proxy-"),
                    Self.isToken(field.name)
                else { continue }
                // A header received twice is one entry, its values joined as HTTP allows.
                if let index = seen[name] {
                    guard case .string(let first) = headerEntries[index].value else { continue }
                    headerEntries[index].value = .string(first + ", " + literal(field.value, redactor))
                } else {
                    seen[name] = headerEntries.count
                    headerEntries.append(header(field.name, field.value, redactor))
                }
            }
            headerEntries.removeAll { entry in
                guard case .string(let value) = entry.value else { return true }
                return value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
            }
        }
        if !headerEntries.isEmpty { members.append(YAMLText.Entry("headers", .map(headerEntries))) }
        if let body { members.append(body) }
        return Rendered(value: .map(members), file: file)
    }

    private func header(_ name: String, _ value: String, _ redactor: SecretRedactor) -> YAMLText.Entry {
        YAMLText.Entry(name, .string(literal(value, redactor)))
    }

    private func literal(_ value: String, _ redactor: SecretRedactor) -> String {
        NewCase.literal(redactor.redact(value))
    }

    /// A header name as HTTP allows it (a token): anything else is not recorded.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }

    /// `bytes` with every secret (at least ``SecretRedactor/minimumSecretLength`` bytes) replaced
    /// by the placeholder: a body that is not text is redacted byte for byte.
    static func replacingSecrets(in bytes: [UInt8], _ secrets: [String]) -> [UInt8] {
        let forms = secrets.map { Array($0.utf8) }.filter { $0.count >= SecretRedactor.minimumSecretLength }
            .sorted { $0.count > $1.count }
        guard !forms.isEmpty else { return bytes }
        let placeholder = Array(secretPlaceholder.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        scan: while index < bytes.count {
            for form in forms where bytes[index] == form[0] && bytes[index...].starts(with: form) {
                out += placeholder
                index += form.count
                continue scan
            }
            out.append(bytes[index])
            index += 1
        }
        return out
    }
}
