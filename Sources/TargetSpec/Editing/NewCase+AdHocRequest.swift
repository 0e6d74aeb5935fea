import OrderedJSON
import TargetModel

extension NewCase {
    /// What `moya-cli request` sent, as a case to save (`--save-as`).
    /// - Parameters:
    ///   - request: the request as the command line gave it.
    ///   - sentBody: the bytes `--json` or `--data` sent (as read from `@FILE` or `-`), for a raw body.
    ///   - extraHeaders: headers given besides the items (`-H`), after them.
    ///   - credentials: headers the command line's credentials added (`-u`, a bearer option): written as secrets.
    /// - Throws: `usage` for what a case cannot say: a removed header, a raw body that is not UTF-8.
    package init(
        _ request: AdHocRequest, sentBody: [UInt8]? = nil, extraHeaders: [Header] = [],
        credentials: [Header] = []
    ) throws(TargetFileEditError) {
        if let removed = request.removedHeaderNames.first {
            throw TargetFileEditError(
                .usage,
                "the request removes the header \(removed); a case cannot remove the API's headers, so it cannot be saved with --save-as"
            )
        }
        self = request.sent
        for header in extraHeaders {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append(header)
        }
        headers += credentials.map { Header(name: $0.name, value: $0.value, isSecret: true) }
        if case .multipart(let parts) = body {
            // The path on the command line is not the case's: each file part becomes a `file` value.
            body = .multipart(parts.map { Part(name: $0.name, content: $0.content) })
        }
        if let raw = request.rawBody {
            let bytes = sentBody ?? []
            if raw.isJSON, let value = try? JSONValue(parsing: bytes) {
                body = .json(value)
            } else if let text = String(validating: bytes, as: UTF8.self) {
                body = .text(text)
            } else {
                throw TargetFileEditError(
                    .usage, "the body is not UTF-8 text; a case cannot hold it (save it to a file and use dataFile)")
            }
        }
    }
}
