import MoyaKit
import TargetSpec

/// Prints a response the way `call`'s options ask: raw for pipes, pretty for people, an envelope for scripts.
struct ResponseWriter {
    var output: OutputOptions
    var target: DynamicTarget
    var isStubbed: Bool
    var environment: [String: String]
    var noColor: Bool

    var stdoutIsTerminal: Bool { Terminal.isTerminal(StandardStream.output.fileDescriptor) }
    var colorsStdout: Bool { Terminal.usesColor(on: StandardStream.output.fileDescriptor, disabled: noColor, environment: environment) }

    /// Writes `response` (also a response that failed validation: its body is still shown).
    func write(_ response: Response) throws {
        if output.format == .json {
            StandardStream.output.write(envelope(response))
            return
        }
        if output.include || output.headersOnly {
            StandardStream.output.write(head(of: response))
            if output.headersOnly { return }
            StandardStream.output.write("\n")
        }
        if target.task.downloadsFile {
            return
        }
        if let keyPath = output.keyPath {
            do {
                StandardStream.output.write(try response.mapString(atKeyPath: keyPath) + "\n")
            } catch {
                throw CommandFailure(.transportFailure, "key path '\(keyPath)' not found in the response body (\(error.description))")
            }
            return
        }
        if let path = output.output {
            try OutputFile.write(response.data, to: path, overwrite: output.force)
            StandardStream.error.write("moya-cli: wrote \(response.data.count) bytes to \(path)\n")
            return
        }
        writeBody(response.data, contentType: response.response?.headers[.contentType])
    }

    func writeBody(_ data: Data, contentType: String?) {
        guard stdoutIsTerminal else {
            StandardStream.output.write(data)
            return
        }
        if data.isEmpty { return }
        if Self.looksLikeJSON(data, contentType: contentType), let json = try? JSONValue(parsing: data) {
            let text = colorsStdout ? json.coloredString() : json.serializedString(options: .prettyPrinted)
            StandardStream.output.write(text + "\n")
            return
        }
        guard let text = Self.printableText(data) else {
            StandardStream.error.write("moya-cli: binary body (\(data.count) bytes\(contentType.map { ", \($0)" } ?? "")) not shown on a terminal; use --output FILE or a pipe\n")
            return
        }
        StandardStream.output.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// The status line and headers, as on the wire.
    func head(of response: Response) -> String {
        let version = response.response?.httpVersion ?? "HTTP/1.1"
        let reason = ReasonPhrase.forStatus(response.statusCode)
        var text = "\(version) \(response.statusCode)\(reason.isEmpty ? "" : " " + reason)\n"
        for field in response.response?.headers ?? HTTPFields() {
            text += "\(field.name.rawName): \(field.value)\n"
        }
        return text
    }

    /// `--format json`: a stable document with everything a script needs.
    func envelope(_ response: Response) -> String {
        let headers: [JSONValue] = (response.response?.headers ?? HTTPFields()).map {
            .object([("name", .string($0.name.rawName)), ("value", .string($0.value))])
        }
        var body: JSONValue = .null
        var bodyBase64: JSONValue = .null
        if !response.data.isEmpty {
            if let json = try? JSONValue(parsing: response.data) {
                body = json
            } else if let text = String(validating: response.data, as: UTF8.self) {
                body = .string(text)
            } else {
                bodyBase64 = .string(response.data.base64EncodedString())
            }
        }
        let timing = response.timing ?? Timing()
        let document: JSONValue = .object([
            ("api", .string(target.apiName)),
            ("case", .string(target.caseName)),
            ("stubbed", .bool(isStubbed)),
            ("url", .string(response.response?.url?.absoluteString ?? response.request?.url?.absoluteString ?? target.url)),
            ("status", .int(response.statusCode)),
            ("headers", .array(headers)),
            ("body", body),
            ("bodyBase64", bodyBase64),
            ("timing", .object([
                ("total", .double(timing.total)), ("nameLookup", .double(timing.nameLookup)), ("connect", .double(timing.connect)),
                ("tlsHandshake", .double(timing.tlsHandshake)), ("firstByte", .double(timing.firstByte)),
            ])),
        ])
        if stdoutIsTerminal {
            return (colorsStdout ? document.coloredString() : document.serializedString(options: .prettyPrinted)) + "\n"
        }
        return document.serializedString() + "\n"
    }

    static func looksLikeJSON(_ data: Data, contentType: String?) -> Bool {
        if let contentType = contentType?.lowercased(), contentType.contains("json") { return true }
        guard let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The body as text when it is UTF-8 without control characters other than tab and newlines.
    static func printableText(_ data: Data) -> String? {
        guard let text = String(validating: data, as: UTF8.self) else { return nil }
        for scalar in text.unicodeScalars where scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t" {
            return nil
        }
        return text
    }
}

extension MoyaKit.Task {
    /// Whether the body goes to a download destination rather than to stdout.
    var downloadsFile: Bool {
        switch self {
        case .downloadDestination, .downloadParameters: true
        default: false
        }
    }
}

/// Writes `--output` files without ever leaving half a file or overwriting one by accident.
enum OutputFile {
    /// Refuses an existing `path` unless `overwrite`: checked before the request is sent, and again when writing.
    static func checkAvailable(_ path: String, overwrite: Bool) throws {
        if FileManager.default.fileExists(atPath: path) && !overwrite {
            throw CommandFailure(.usage, "\(path) exists; pass --force to replace it")
        }
    }

    /// Saves `data` at `path` through MoyaKit's `DownloadFile`, the same temporary-file-then-move
    /// a download uses, so a failed write leaves neither half a file nor a temporary one.
    static func write(_ data: Data, to path: String, overwrite: Bool) throws {
        try checkAvailable(path, overwrite: overwrite)
        do {
            try DownloadFile.write(data, to: URL(fileURLWithPath: path), overwrite: overwrite)
        } catch {
            throw CommandFailure(.transportFailure, error.message)
        }
    }
}
