import OrderedJSON
import TextSafety

/// How a response body becomes a case's sample, for every writer (imports, `--save-sample`,
/// `--record`): inline as `json:` or `text:` when the loader can read it back, else in a file
/// beside the target file (`file:`), and never with a credential in it.
package enum SampleBody {
    /// The largest body written into the target file.
    package static let maximumInlineBytes = 64 * 1024
    /// The largest body other than JSON written into the file: a page of text or HTML is one
    /// quoted line there, unreadable and bloating the file; a larger one goes to a file beside it.
    package static let maximumInlineTextBytes = 8 * 1024
    /// The deepest JSON written into the file: the loader reads 64 levels (`YAMLLimits`), the
    /// case and its samples take some.
    package static let maximumInlineDepth = 32
    /// What replaces a secret in a sample.
    package static let placeholder = SecretMatcher.placeholder

    /// Where a sample body that cannot stand in the target file goes, relative to the file's folder
    /// and without the extension: `samples/API/CASE` (`.NAME` for a named sample).
    package static func fileStem(api: String, caseName: String, sampleName: String? = nil) -> String {
        "samples/" + api + "/" + caseName + (sampleName.map { "." + $0 } ?? "")
    }

    /// Whether a body goes to a file beside the target file rather than into it, for every writer
    /// (`--record`, `--save-sample`, imports): not text, larger than ``maximumInlineBytes``, or
    /// text other than JSON larger than ``maximumInlineTextBytes``. (JSON that nests too deep, see
    /// ``fitsInline(_:)-swift.type.method``, goes there too.)
    package static func belongsInFile(byteCount: Int, isText: Bool, isJSON: Bool) -> Bool {
        !isText || byteCount > maximumInlineBytes || !isJSON && byteCount > maximumInlineTextBytes
    }

    /// A named sample's name from its status, the same for every importer: `ok`, `notModified`,
    /// `unauthorized`, else `status<N>`.
    package static func sampleName(status: Int) -> String {
        statusNames[status] ?? "status\(status)"
    }

    private static let statusNames: [Int: String] = [
        200: "ok", 201: "created", 202: "accepted", 203: "nonAuthoritative", 204: "noContent",
        205: "resetContent", 206: "partialContent", 300: "multipleChoices", 301: "movedPermanently",
        302: "found", 303: "seeOther", 304: "notModified", 307: "temporaryRedirect", 308: "permanentRedirect",
        400: "badRequest", 401: "unauthorized", 402: "paymentRequired", 403: "forbidden", 404: "notFound",
        405: "methodNotAllowed", 406: "notAcceptable", 408: "requestTimeout", 409: "conflict", 410: "gone",
        411: "lengthRequired", 412: "preconditionFailed", 413: "contentTooLarge", 415: "unsupportedMediaType",
        422: "unprocessableEntity", 423: "locked", 428: "preconditionRequired", 429: "tooManyRequests",
        500: "internalServerError", 501: "notImplemented", 502: "badGateway", 503: "serviceUnavailable",
        504: "gatewayTimeout"
    ]

    /// Whether a recorded or saved response may be a case's default sample: the default must pass
    /// the case's validation (`check`, `--stub`), and a 2xx is what every case accepts.
    package static func isSuccess(status: Int) -> Bool { (200...299).contains(status) }

    /// Whether a JSON body can be written as `json:`: not too deep, no key twice in an object,
    /// and no key so long that only block style could hold it (a flow sample could not).
    package static func fitsInline(_ value: JSONValue) -> Bool {
        func fits(_ value: JSONValue, depth: Int) -> Bool {
            guard depth <= maximumInlineDepth else { return false }
            switch value {
            case .array(let items): return items.allSatisfy { fits($0, depth: depth + 1) }
            case .object(let members):
                // JSON allows a key twice; a YAML map does not.
                var keys: Set<String> = []
                return members.allSatisfy {
                    keys.insert($0.0).inserted && YAMLText.key($0.0).utf8.count <= YAMLText.maximumSimpleKeyLength
                        && fits($0.1, depth: depth + 1)
                }
            default: return true
            }
        }
        return fits(value, depth: 0)
    }

    /// Whether YAML made for a sample (an OpenAPI example) nests shallowly enough for the loader.
    package static func fitsInline(_ value: YAMLText) -> Bool {
        func fits(_ value: YAMLText, depth: Int) -> Bool {
            guard depth <= maximumInlineDepth else { return false }
            switch value {
            case .list(let items): return items.allSatisfy { fits($0, depth: depth + 1) }
            case .map(let entries): return entries.allSatisfy { fits($0.value, depth: depth + 1) }
            default: return true
            }
        }
        return fits(value, depth: 0)
    }

    /// `value` with the string of every member named as a credential (`access_token`,
    /// `refresh_token`, `password`; ``TextSafety/CredentialNames``) replaced by the placeholder: a
    /// login's answer is someone's live session.
    package static func hidingCredentials(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(hidingCredentials))
        case .object(let members):
            return .object(
                members.map { member in
                    if case .string(let text) = member.1, !text.isEmpty, CredentialNames.looksSecret(member.0) {
                        return (member.0, .string(placeholder))
                    }
                    return (member.0, hidingCredentials(member.1))
                })
        default: return value
        }
    }

    /// `application/json` and every `…+json` type.
    package static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = (contentType.split(separator: ";", maxSplits: 1).first ?? "").filter { $0 != " " && $0 != "\t" }
            .lowercased()
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// The extension of a body's file, from its content type: `json` only for a body that is
    /// JSON (the loader parses a `.json` sample file), `bin` for one that is not text.
    package static func fileExtension(_ contentType: String?, isText: Bool, isJSON: Bool) -> String {
        let type = (contentType?.split(separator: ";", maxSplits: 1).first ?? "").filter { $0 != " " }.lowercased()
        if isJSON { return "json" }
        switch type {
        case "image/png": return "png"
        case "image/jpeg": return "jpg"
        case "image/gif": return "gif"
        case "application/pdf": return "pdf"
        case "text/html" where isText: return "html"
        case "text/csv" where isText: return "csv"
        case "application/xml" where isText, "text/xml" where isText: return "xml"
        default: return isText ? "txt" : "bin"
        }
    }
}
