import MoyaKit
import Synchronization
import TargetModel
import TargetSpec
import TextSafety

/// `-v`: the exchange as HTTP on standard error, the way curl `-v` and HTTPie `-v` show it:
/// `> ` request heads as sent (each redirect's too) and the request body once, `< ` response
/// headers as received, `* ` notes. The response body is not repeated: it goes to standard
/// output (or `-o`) as without `-v`. Secrets are redacted; on a terminal, control characters are
/// escaped and the lines are colored (unless `--no-color`, `NO_COLOR` or `TERM=dumb`).
///
/// A live request is traced by the transport (`Session(configuration:trace:)`); a stubbed one has
/// no transport, so its request and sample answer are written from the request and the response.
final class VerboseLog: Sendable {
    private let redactor: SecretRedactor
    private let onTerminal: Bool
    private let colors: Bool
    /// The request body, shown after the first request head.
    private let pendingBody = Mutex<String?>(nil)
    /// `request --offline`: the request's lines go to standard output, without the stub's note
    /// and answer, as the only output.
    private let isOffline: Bool
    /// Headers the sender marked sensitive on a request (those a `prepare` program added): hidden
    /// like a credential wherever they are shown after.
    private let learnedSensitiveNames = Mutex<Set<String>>([])
    /// `--print H` and `B`: only the request's head and body, on standard output (as `--offline`
    /// prints them), for a request that is sent.
    private let requestParts: RequestParts?

    struct RequestParts: Sendable {
        var head: Bool
        var body: Bool
    }

    init(
        redactor: SecretRedactor, onTerminal: Bool, colors: Bool, isOffline: Bool = false,
        requestParts: RequestParts? = nil
    ) {
        self.redactor = redactor
        self.onTerminal = onTerminal
        self.colors = colors
        self.isOffline = isOffline || requestParts != nil
        self.requestParts = requestParts
    }

    // MARK: Live (the transport's trace)

    func trace(_ event: TransferTrace) {
        if requestParts != nil, case .requestHead = event {} else if requestParts != nil { return }
        switch event {
        case .note(let text):
            write([style("* " + redactor.redact(text), .dim)])
        case .requestHead(let lines):
            guard let first = lines.first else { return }
            var output: [String] = []
            if requestParts?.head ?? true {
                output = [style("> " + redactor.redact(first), .bold)]
                output += lines.dropFirst().map { "> " + shown(headerLine($0)) }
                output.append(">")
            }
            if let body = pendingBody.withLock({ body in
                defer { body = nil }
                return body
            }) {
                output.append(shownBody(body))
            }
            if !output.isEmpty { write(output) }
        case .responseHeader(let line):
            if line.isEmpty {
                write(["<"])
            } else if line.hasPrefix("HTTP/") {
                write([style("< " + line, statusStyle(line))])
            } else {
                write(["< " + shown(headerLine(line))])
            }
        }
    }

    // MARK: Plugin side

    /// Keeps the request body to show after the request head; for a stub, writes the request.
    func willSend(_ request: URLRequest, isStubbed: Bool) {
        if !request.sensitiveHeaderNames.isEmpty {
            learnedSensitiveNames.withLock { $0.formUnion(request.sensitiveHeaderNames) }
        }
        let body = requestParts?.body == false ? nil : Self.bodySummary(of: request).map(redactor.redact)
        guard isStubbed else {
            pendingBody.withLock { $0 = body }
            return
        }
        let url = request.url
        let target = (url?.path.isEmpty ?? true ? "/" : url?.path ?? "/") + (url?.query.map { "?" + $0 } ?? "")
        var lines = isOffline ? [] : [style("* stubbed: answered from the case's sample, nothing is sent", .dim)]
        if requestParts?.head ?? true {
            lines.append(style("> " + redactor.redact("\(request.httpMethod ?? "GET") \(target) HTTP/1.1"), .bold))
            if let host = url?.host {
                lines.append("> Host: " + shown(redactor.redact(host + (url?.port.map { ":\($0)" } ?? ""))))
            }
            lines += request.headers.map { "> " + shown(headerLine("\($0.name.rawName): \($0.value)")) }
            lines.append(">")
        }
        if let body { lines.append(shownBody(body)) }
        if !lines.isEmpty { write(lines) }
    }

    /// For a stub, writes the sample's status line and headers; for any failure without a
    /// response, the error.
    func didReceive(_ result: Result<Response, MoyaError>, isStubbed: Bool) {
        guard !isOffline else { return }
        let response: Response?
        switch result {
        case .success(let answer): response = answer
        case .failure(let error):
            response = error.response
            if response == nil {
                write([style("* " + redactor.redact(error.transportError?.message ?? error.description), .failure)])
            }
        }
        guard isStubbed, let response else {
            if let timing = response?.timing, let response { write([style(Self.timingLine(timing, response), .dim)]) }
            return
        }
        let head = response.response ?? HTTPResponseHead(statusCode: response.statusCode)
        let status = "\(head.httpVersion) \(head.statusCode) \(ReasonPhrase.forStatus(head.statusCode))"
        var lines = [style("< " + status, statusStyle(status))]
        lines += head.headers.map { "< " + shown(headerLine("\($0.name.rawName): \($0.value)")) }
        lines.append("<")
        write(lines)
    }

    /// `-v`'s last line: how long the exchange took, and its parts (curl's `-w` times).
    static func timingLine(_ timing: Timing, _ response: Response) -> String {
        let seconds = WriteOut.sixDecimals
        return "* total \(seconds(timing.total)) s: name lookup \(seconds(timing.nameLookup)) s, "
            + "connect \(seconds(timing.connect)) s, TLS \(seconds(timing.tlsHandshake)) s, "
            + "first byte \(seconds(timing.firstByte)) s; \(response.bodyLength) bytes of body"
    }

    // MARK: Formatting

    private enum Style { case bold, dim, success, redirect, failure }

    /// Server and file text as shown: on a terminal, control characters escaped (one line).
    private func shown(_ text: String) -> String {
        onTerminal ? DisplayText.escaped(text) : text
    }

    /// `text` (escaped for a terminal first) in `style`'s color, when colors are on.
    private func style(_ text: String, _ style: Style) -> String {
        let text = shown(text)
        guard colors else { return text }
        let code =
            switch style {
            case .bold: "1"
            case .dim: "2"
            case .success: "1;32"
            case .redirect: "1;33"
            case .failure: "1;31"
            }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }

    private func statusStyle(_ statusLine: String) -> Style {
        let code = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return switch code {
        case 200..<300: .success
        case 300..<400: .redirect
        default: .failure
        }
    }

    /// `Name: value` with the value redacted by name (sensitive headers) and by secret values.
    private func headerLine(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return redactor.redact(line) }
        let name = String(line[..<colon])
        let value = String(line[line.index(after: colon)...]).drop { $0 == " " }
        let lowercased = name.lowercased()
        if learnedSensitiveNames.withLock({ $0.contains(lowercased) }) {
            var redactor = self.redactor
            redactor.sensitiveHeaderNames.insert(lowercased)
            return name + ": " + redactor.redact(headerValue: String(value), name: name)
        }
        return name + ": " + redactor.redact(headerValue: String(value), name: name)
    }

    /// A request body as shown: on a terminal, control characters escaped but its lines kept.
    private func shownBody(_ body: String) -> String {
        onTerminal ? DisplayText.escaped(body, keepingLineBreaks: true) : body
    }

    /// Writes lines whose server and file text is already escaped (`shown`, `style`): the only
    /// escape sequences left are the colors'.
    private func write(_ lines: [String]) {
        (isOffline ? StandardStream.output : StandardStream.error).write(lines.joined(separator: "\n") + "\n")
    }

    /// The request body as shown: text as it is (up to 64 KiB), otherwise what it is.
    static func bodySummary(of request: URLRequest) -> String? {
        if let body = request.httpBody, !body.isEmpty {
            let limit = 64 << 10
            if let text = String(validating: body.prefix(limit), as: UTF8.self),
                !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" })
            {
                return body.count > limit ? text + "\n[\(body.count) bytes in all]" : text
            }
            return "[\(body.count) bytes of binary data]"
        }
        if let file = request.bodyFileURL {
            // `--data -` over 1 MiB waits in an unlinked temporary file (`SpooledFile`).
            if file.path.hasPrefix("/proc/self/fd/") {
                return "[the body read from standard input, kept in a temporary file]"
            }
            return "[the contents of \(file.path)]"
        }
        if let parts = request.multipartParts {
            let names = parts.map { part in
                if case .file(let url) = part.provider { "\(part.name)=@\(url.path)" } else { part.name }
            }
            return "[multipart/form-data: " + names.joined(separator: ", ") + "]"
        }
        return nil
    }
}

/// Hands the request and a stub's answer to the `VerboseLog`.
struct VerboseLogPlugin: PluginType {
    var log: VerboseLog
    var isStubbed: Bool

    func willSend(_ request: any RequestType, target: any TargetType) {
        guard let urlRequest = request.request else { return }
        log.willSend(urlRequest, isStubbed: isStubbed)
    }

    func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
        log.didReceive(result, isStubbed: isStubbed)
    }
}
