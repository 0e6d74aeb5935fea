/// A request as a `curl` command a user can paste into a POSIX shell.
///
/// `curl -X METHOD` (left out for GET; `--head` for HEAD), `-H 'Name: value'` per header
/// (`-H 'Name;'` for an empty value), `--data-binary 'body'`, `--data-binary @/path` for a file
/// upload, `-F` per multipart part, the URL last. Run, it makes the request MoyaKit makes: where
/// curl would add a `Content-Type` MoyaKit does not send, `-H 'Content-Type:'` removes it. Every argument is single-quoted (`'` written `'\''`). Secrets are redacted by
/// the `SecretRedactor`. A body that is not text (or holds NUL) is piped in with `printf`.
public struct CURLCommand: Sendable {
    /// The request rendered.
    public let request: URLRequest
    /// What is hidden.
    public let redactor: SecretRedactor
    /// Headers added by the session, rendered before the request's own.
    public let sessionHeaders: [String: String]

    /// Creates a command for `request`.
    public init(request: URLRequest, redactor: SecretRedactor = SecretRedactor(), sessionHeaders: [String: String] = [:]) {
        self.request = request
        self.redactor = redactor
        self.sessionHeaders = sessionHeaders
    }

    /// The command's arguments, unquoted, starting with `curl` (a body that cannot be an argument
    /// is `@-`: read from standard input, see `stdinBody`).
    public var arguments: [String] {
        var arguments = ["curl"]
        let method = request.httpMethod ?? "GET"
        switch method {
        case "GET": break
        case "HEAD": arguments.append("--head")
        default: arguments += ["-X", method]
        }
        for (name, value) in sessionHeaders.sorted(by: { $0.key < $1.key }) where request.value(forHTTPHeaderField: name) == nil {
            arguments += ["-H", "\(name): \(redactor.redact(headerValue: value, name: name))"]
        }
        for (name, value) in request.headers.combinedByName {
            // `Name:` with nothing after it would make curl drop the field; `Name;` sends it empty.
            arguments += ["-H", value.isEmpty ? "\(name);" : "\(name): \(redactor.redact(headerValue: value, name: name))"]
        }
        if removesDefaultContentType {
            arguments += ["-H", "Content-Type:"]
        }
        if let body = request.httpBody {
            arguments += ["--data-binary", textBody(body).map(redactor.redact) ?? "@-"]
        } else if let file = request.bodyFileURL {
            arguments += ["--data-binary", "@" + file.path]
        } else if method == "POST" && request.multipartParts == nil {
            // MoyaKit sends `Content-Length: 0` with an empty POST; plain `curl -X POST` sends none.
            arguments += ["--data-binary", ""]
        }
        for part in request.multipartParts ?? [] {
            arguments += formArguments(for: part)
        }
        arguments.append(redactor.redact(request.url?.absoluteString ?? ""))
        return arguments
    }

    /// Whether `-H 'Content-Type:'` must stop curl adding `application/x-www-form-urlencoded` to
    /// the `--data-binary` body, because MoyaKit sends no type there: for an empty body, and for
    /// a file streamed with another method than POST (libcurl's upload mode).
    private var removesDefaultContentType: Bool {
        guard request.value(forHTTPHeaderField: "Content-Type") == nil, request.multipartParts == nil else { return false }
        let method = request.httpMethod ?? "GET"
        if request.bodyFileURL != nil && request.httpBody == nil { return method != "POST" }
        if let body = request.httpBody { return body.isEmpty }
        return method == "POST"
    }

    /// The body bytes to pipe into `curl` when they cannot be an argument.
    public var stdinBody: Data? {
        guard let body = request.httpBody, textBody(body) == nil else { return nil }
        return body
    }

    /// The command line; with `multiline`, one option per line joined by `\`.
    public func rendered(multiline: Bool = false) -> String {
        var words: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            // Keep each option on the same line as its value.
            if argument == "-X", let method = iterator.next() {
                words.append(argument + " " + (Self.isPlainWord(method) ? method : Self.shellQuoted(method)))
            } else if argument.hasPrefix("-") && argument != "--head", let value = iterator.next() {
                words.append(argument + " " + Self.shellQuoted(value))
            } else {
                words.append(argument == "curl" || argument == "--head" ? argument : Self.shellQuoted(argument))
            }
        }
        let command = words.joined(separator: multiline ? " \\\n  " : " ")
        guard let stdinBody else { return command }
        return "printf '%b' " + Self.shellQuoted(Self.octalEscaped(stdinBody)) + " | " + command
    }

    /// `value` in single quotes, each `'` written `'\''`.
    public static func shellQuoted(_ value: String) -> String {
        "'" + value.replacing("'", with: #"'\''"#) + "'"
    }

    /// Whether `word` needs no quoting in a shell (a method name such as `POST`, say).
    private static func isPlainWord(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { PercentEncoding.isUnreserved($0) }
    }

    private func textBody(_ body: Data) -> String? {
        guard !body.contains(0), let text = String(validating: body, as: UTF8.self) else { return nil }
        return text
    }

    private func formArguments(for part: MultipartFormBodyPart) -> [String] {
        var value: String
        var isLiteral = false
        switch part.provider {
        case .file(let url):
            value = "\(part.name)=@\(url.path)"
        case .data(let data):
            let text = textBody(data) ?? "<\(data.count) bytes>"
            value = "\(part.name)=\(redactor.redact(text))"
            // curl reads `@file` and `<file` in -F values; --form-string takes the text literally.
            isLiteral = text.hasPrefix("@") || text.hasPrefix("<")
        }
        if let fileName = part.fileName { value += ";filename=\(fileName)" }
        if let mimeType = part.mimeType { value += ";type=\(mimeType)" }
        return [isLiteral ? "--form-string" : "-F", value]
    }

    private static func octalEscaped(_ data: Data) -> String {
        var text = ""
        for byte in data {
            let octal = String(byte, radix: 8)
            text += "\\0" + String(repeating: "0", count: 3 - octal.count) + octal
        }
        return text
    }
}
