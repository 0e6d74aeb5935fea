import HTTPTypes
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request as a `curl` command a user can paste into a POSIX shell, sending what the libcurl
/// transport sends.
///
/// `curl -X METHOD` whenever curl's own choice for the body options differs (`--data*` and `-F`
/// post, `-T` puts, nothing gets: so `-X GET` for a GET with a body; a POST with a body is left to
/// curl so that redirects turn it into a GET as the transport does; `--head` for HEAD, whose body
/// the transport does not send), `-H 'Name: value'` per
/// header (`-H 'Name;'` for an empty value), `--data-binary 'body'` (`--data-raw` when the body
/// starts with `@`, which curl would read as a file name), `-T /path` to stream a file upload
/// (`--data-binary @/path` for a POST, which gets the same form Content-Type as the transport's),
/// `-F` per multipart part with its value, file and file name double-quoted, the URL last. Every
/// argument is single-quoted (`'` written `'\''`). Secrets are redacted by the `SecretRedactor`.
/// A body that is not text (or holds NUL) is piped in with `printf`. `--compressed` asks for and
/// decodes compressed bodies, as the transport does by default (`acceptsCompressedResponses`).
/// A credential answered to a Digest challenge is `--digest -u 'user:<redacted>'`.
public struct CURLCommand: Sendable {
    /// The request rendered.
    public let request: URLRequest
    /// What is hidden.
    public let redactor: SecretRedactor
    /// Headers added by the session, rendered before the request's own.
    public let sessionHeaders: [String: String]
    /// Whether compressed bodies are asked for and decoded (`--compressed`).
    public let acceptsCompressedResponses: Bool

    /// Creates a command for `request`.
    public init(
        request: URLRequest, redactor: SecretRedactor = SecretRedactor(), sessionHeaders: [String: String] = [:],
        acceptsCompressedResponses: Bool = true
    ) {
        self.request = request
        self.redactor = redactor
        self.sessionHeaders = sessionHeaders
        self.acceptsCompressedResponses = acceptsCompressedResponses
    }

    /// The command's arguments, unquoted, starting with `curl` (a body that cannot be an argument
    /// is `@-`: read from standard input, see `stdinBody`).
    public var arguments: [String] {
        ["curl"]
            + options.flatMap { option in (option.name.isEmpty ? [] : [option.name]) + (option.value.map { [$0] } ?? [])
            }
    }

    /// The options after `curl`, each with its value, the URL last (as a value without a name).
    private var options: [(name: String, value: String?)] {
        var options: [(name: String, value: String?)] = []
        let method = request.httpMethod ?? "GET"
        // The transport sends a HEAD without its body (CURLOPT_NOBODY); `--head` with a body
        // option is refused by curl.
        let body = method == "HEAD" ? [] : bodyOptions(method: method)
        if method == "HEAD" {
            options.append(("--head", nil))
        } else if method != Self.methodCurlInfers(from: body) {
            options.append(("-X", method))
        }
        if acceptsCompressedResponses { options.append(("--compressed", nil)) }
        if let credential = request.digestCredential {
            // The password is a secret whoever set it (a plugin's redactor may not know it).
            let password = redactor.showsSecrets ? credential.password : redactor.placeholder
            options.append(("--digest", nil))
            options.append(("-u", redactor.redact(credential.user) + ":" + password))
        }
        for (name, value) in sessionHeaders.sorted(by: { $0.key < $1.key })
        where request.value(forHTTPHeaderField: name) == nil {
            options.append(("-H", headerArgument(name: name, value: value)))
        }
        for (name, value) in request.headers.combinedByName {
            options.append(("-H", headerArgument(name: name, value: value)))
        }
        if sendsExpectContinue && request.value(forHTTPHeaderField: "Expect") == nil {
            options.append(("-H", "Expect:"))
        }
        options += body
        options.append(("", redactor.redact(request.url?.absoluteString ?? "")))
        return options
    }

    /// The method curl sends for these body options without `-X`: `-T` puts, `--data*` and `-F`
    /// post, no body gets. A POST is left to curl so that a 301/302/303 turns it into a GET, as
    /// the transport's CURLOPT_POST does; any other method that differs is written with `-X`.
    static func methodCurlInfers(from body: [(name: String, value: String?)]) -> String {
        if body.contains(where: { $0.name == "-T" }) { return "PUT" }
        if body.contains(where: { $0.name.hasPrefix("--data") || $0.name == "-F" }) { return "POST" }
        return "GET"
    }

    /// Whether curl would send `Expect: 100-continue` (for file uploads and bodies over 1 MiB),
    /// which the transport never sends: a server that ignores it would stall the upload.
    private var sendsExpectContinue: Bool {
        if request.httpMethod == "HEAD" { return false }
        if request.bodyFileURL != nil { return true }
        if let body = request.httpBody { return body.count > 1024 * 1024 }
        return request.multipartParts?.contains { if case .file = $0.provider { true } else { false } } ?? false
    }

    /// `Name: value`, or `Name;`: to curl, `Name:` with nothing after it removes the header.
    private func headerArgument(name: String, value: String) -> String {
        value.isEmpty ? "\(name);" : "\(name): \(redactor.redact(headerValue: value, name: name))"
    }

    /// The options that send the body the way the transport does.
    private func bodyOptions(method: String) -> [(name: String, value: String?)] {
        let untyped = request.value(forHTTPHeaderField: "Content-Type") == nil
        if let body = request.httpBody, body.isEmpty {
            // The transport sends an empty body without a type; curl would add a form type.
            return (untyped ? [("-H", "Content-Type:")] : []) + [("--data-binary", "")]
        }
        if let body = request.httpBody {
            guard let text = textBody(body) else { return [("--data-binary", "@-")] }
            return [(text.hasPrefix("@") ? "--data-raw" : "--data-binary", redactor.redact(text))]
        }
        if let file = request.bodyFileURL, request.streamedFilePaths.contains(file.path) {
            // A stream is read as curl reads `-T -`: chunked, whatever the method (-X says it).
            return [("-T", streamPath(file))]
        }
        if let file = request.bodyFileURL {
            // `-T` streams like the transport (no Content-Type) but appends the file name to a URL
            // ending in `/`; a POST streams with a form Content-Type, as `--data-binary` sends.
            let address = request.url?.absoluteString ?? "/"
            let endsInSlash = address.prefix { $0 != "?" && $0 != "#" }.hasSuffix("/")
            if method == "POST" || endsInSlash {
                var options: [(name: String, value: String?)] = []
                if method != "POST" && request.value(forHTTPHeaderField: "Content-Type") == nil {
                    options.append(("-H", "Content-Type:"))
                }
                return options + [("--data-binary", "@" + file.path)]
            }
            return [("-T", file.path)]
        }
        if let parts = request.multipartParts {
            return parts.map { ("-F", formArgument(for: $0)) }
        }
        // The transport posts an empty body, with Content-Length: 0 and no type.
        return method == "POST" ? (untyped ? [("-H", "Content-Type:")] : []) + [("--data-binary", "")] : []
    }

    /// The body bytes to pipe into `curl` when they cannot be an argument.
    public var stdinBody: Data? {
        guard let body = request.httpBody, textBody(body) == nil else { return nil }
        return body
    }

    /// The command line; with `multiline`, one option per line joined by `\`.
    public func rendered(multiline: Bool = false) -> String {
        let words =
            ["curl"]
            + options.map { option -> String in
                guard let value = option.value else { return option.name }
                let quoted = option.name == "-X" && Self.isPlainWord(value) ? value : ShellQuoting.singleQuoted(value)
                return option.name.isEmpty ? quoted : option.name + " " + quoted
            }
        let command = words.joined(separator: multiline ? " \\\n  " : " ")
        guard let stdinBody else { return command }
        return "printf '%b' " + ShellQuoting.singleQuoted(Self.octalEscaped(stdinBody)) + " | " + command
    }

    /// Whether `word` needs no quoting in a shell (a method name such as `POST`, say).
    private static func isPlainWord(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { PercentEncoding.isUnreserved($0) }
    }

    private func textBody(_ body: Data) -> String? {
        guard !body.contains(0), let text = String(validating: body, as: UTF8.self) else { return nil }
        return text
    }

    /// `name=value` or `name=@path`, then `;filename=...` and `;type=...`; a value, path or file
    /// name that curl would parse (`;`, `,`, quotes, a leading `@` or `<`, outer spaces) is
    /// double-quoted, with `"` and `\` escaped, which curl reads literally.
    private func formArgument(for part: MultipartFormBodyPart) -> String {
        var value: String
        switch part.provider {
        case .file(let url):
            let path = request.streamedFilePaths.contains(url.path) ? streamPath(url) : url.path
            value = "\(part.name)=@" + (path == "-" ? path : Self.formQuoted(path))
        case .data(let data):
            value = "\(part.name)=" + Self.formQuoted(redactor.redact(textBody(data) ?? "<\(data.count) bytes>"))
        }
        if let fileName = part.fileName { value += ";filename=" + Self.formQuoted(fileName) }
        if let mimeType = part.mimeType { value += ";type=\(mimeType)" }
        return value
    }

    /// How curl names a stream the user gave: `-` for standard input, else its path.
    private func streamPath(_ url: URL) -> String {
        url.path == "/dev/stdin" ? "-" : url.path
    }

    private static func formQuoted(_ text: String) -> String {
        let isLiteral =
            !text.contains(where: { ";,\"\\\n\r".contains($0) })
            && !text.hasPrefix("@") && !text.hasPrefix("<") && text.first?.isWhitespace != true
            && text.last?.isWhitespace != true
        if isLiteral { return text }
        return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
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
