import OrderedJSON

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
        self.init(method: request.method, path: request.path)
        if let removed = request.removedHeaderNames.first {
            throw TargetFileEditError(
                .usage,
                "the request removes the header \(removed); a case cannot remove the API's headers, so it cannot be saved with --save-as"
            )
        }
        query = request.query.map { Pair(name: $0.name, value: $0.value) }
        headers = request.sentHeaders.map { Header(name: $0.name, value: $0.value) }
        for header in extraHeaders {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append(header)
        }
        headers += credentials.map { Header(name: $0.name, value: $0.value, isSecret: true) }
        switch request.auth {
        case .inherited: auth = .inherited
        case .none: auth = .none
        case .scheme(let name): auth = .scheme(name)
        }
        switch request.body {
        case .none: body = .none
        case .json(let members): body = .json(.object(members.map { ($0.name, $0.value) }))
        case .form(let pairs): body = .form(pairs.map { Pair(name: $0.name, value: $0.value) })
        case .raw(_, let isJSON):
            let bytes = sentBody ?? []
            if isJSON, let value = try? JSONValue(parsing: bytes) {
                body = .json(value)
            } else if let text = String(validating: bytes, as: UTF8.self) {
                body = .text(text)
            } else {
                throw TargetFileEditError(
                    .usage, "the body is not UTF-8 text; a case cannot hold it (save it to a file and use dataFile)")
            }
        case .multipart(let parts):
            body = .multipart(
                parts.map { part in
                    switch part.content {
                    case .text(let value): Part(name: part.name, content: .text(value))
                    case .file: Part(name: part.name, content: .file(fileName: nil, mimeType: nil))
                    }
                })
        }
    }
}
