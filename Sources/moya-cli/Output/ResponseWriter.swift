import CurlTransport
import FileIO
import HTTPTypes
import MoyaKit
import OrderedJSON
import Sending
import TargetModel
import TargetSpec
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Prints a response the way `call`'s options ask: raw for pipes, pretty for people, an envelope
/// for scripts.
///
/// What does not need the whole body is streamed as it arrives (`bodySink`): the raw body to a
/// pipe, a file or `-o`, with `-i` too, and a text body to a terminal, escaped. Only what does —
/// `--keypath`, `--format json`, pretty printing JSON on a terminal (or holding back a binary
/// body) — keeps it in memory, up to `--max-body-size`; for a pipe those read the body in place
/// (`JSONSpan`) and write as they go, so memory stays near the body's size.
struct ResponseWriter {
    var output: OutputOptions
    var target: DynamicTarget
    var isStubbed: Bool
    var environment: [String: String]
    var noColor: Bool
    /// `--max-body-size`: the most a body kept in memory may take.
    var bodyLimit: ByteSize = .defaultBodyLimit
    /// What the HTTP cache did for each response (`--format json`'s `cache`), when it was asked.
    var cacheLedger: CacheLedger?

    /// How much of a streamed body `-v` logs.
    var stdoutIsTerminal: Bool { Terminal.isTerminal(StandardStream.output.fileDescriptor) }
    var colorsStdout: Bool {
        Terminal.usesColor(on: StandardStream.output.fileDescriptor, disabled: noColor, environment: environment)
    }

    /// Whether a JSON body is printed indented: `--pretty all|format|colors`, else `none`, else
    /// on a terminal.
    var formatsBody: Bool {
        switch output.pretty {
        case "all", "format", "colors": true
        case "none": false
        default: stdoutIsTerminal
        }
    }

    /// Whether a formatted JSON body is colored: `--pretty all|colors` (also on a pipe; `--no-color`
    /// still wins), none for `format`, else as on a terminal.
    var colorsBody: Bool {
        switch output.pretty {
        case "all", "colors": !noColor
        case "format", "none": false
        default: colorsStdout
        }
    }

    /// `-o`'s path, or `nil` for stdout (no `-o`, or `-o -`).
    var outputPath: String? { output.output == "-" ? nil : output.output }

    /// The sink the body streams into, or `nil` when this output needs the whole body (or none of it).
    func makeBodySink() -> BodySink? {
        if target.task.downloadsFile || output.headersOnly { return nil }
        if let outputPath {
            return BodySink(
                destination: .file(path: outputPath, overwrite: true),
                includesHead: output.include && output.format == .raw, sortsHead: output.sorted)
        }
        if output.format == .json || !output.printsBody { return nil }
        if output.keyPath != nil && !output.readsEvents { return nil }
        // `--pretty` on a pipe: the body is formatted whole (within --max-body-size).
        if formatsBody && !stdoutIsTerminal && !output.readsEvents { return nil }
        let events = EventPrinter(
            keyPath: output.bodyKeyPath, jsonLines: output.format == .jsonl, maxEvents: output.maxEvents,
            forcesLines: output.stream, onTerminal: stdoutIsTerminal, colors: colorsStdout, lineLimit: bodyLimit.bytes)
        if stdoutIsTerminal {
            return BodySink(
                destination: .terminal(keepingAtMost: bodyLimit.bytes), includesHead: output.include,
                sortsHead: output.sorted, events: events)
        }
        return BodySink(
            destination: .standardOutput, includesHead: output.include, sortsHead: output.sorted, events: events)
    }

    /// What the transport does with the body, given the sink (if any).
    func bodyHandling(sink: BodySink?) -> ResponseBodyHandling {
        if let sink { return .stream(to: sink, keepingPrefix: 0) }
        if target.task.downloadsFile { return .discard }
        if output.headersOnly { return .headOnly }
        if !output.printsBody && output.format == .raw { return .discard }
        return .collect(limit: bodyLimit.bytes)
    }

    /// Writes `response` (also a response that failed validation: its body is still shown).
    /// A body already streamed into `sink` is only settled: the `-o` file moved into place.
    /// `-D FILE` and `--meta` follow.
    func write(_ response: Response, sink: BodySink?) throws {
        try writeBodyAndHead(response, sink: sink)
        if let path = output.dumpHeader {
            try Self.dumpHead(response, to: path)
        }
        if output.printed.contains("m") {
            StandardStream.output.write(forTerminal(Self.metaText(response)))
        }
    }

    private func writeBodyAndHead(_ response: Response, sink: BodySink?) throws {
        if let sink {
            guard sink.hasBegun else {
                if output.format == .json { try writeWhole(response, body: response.data) }
                return
            }
            if let body = sink.keptBody { return try writeWhole(response, body: body) }
            do {
                let count = try sink.finish()
                if let count, let outputPath, !output.silent {
                    StandardStream.error.write("moya-cli: wrote \(count) bytes to \(outputPath)\n")
                }
                if output.format == .json, let outputPath {
                    writeEnvelope(response, body: Data(), file: (outputPath, count ?? 0))
                }
            } catch {
                throw CommandFailure(Self.status(for: error), error.message)
            }
            return
        }
        try writeWhole(response, body: response.data)
    }

    /// `-D FILE`: the status line and headers as `-i` prints them, the file whole or not at all.
    static func dumpHead(_ response: Response, to path: String) throws {
        let text = headText(response.response ?? HTTPResponseHead(statusCode: response.statusCode)) + "\n"
        do {
            let file = try OutputFile(path: path, overwrite: true)
            do {
                try Array(text.utf8).withUnsafeBytes { try file.write($0) }
                try file.commit()
            } catch {
                file.discard()
                throw error
            }
        } catch let error as FileError {
            throw CommandFailure(status(for: error), "-D \(path): " + error.message)
        }
    }

    /// `--meta` (`-p m`): the status line and the timings, as HTTPie's meta says them.
    static func metaText(_ response: Response) -> String {
        let head = response.response ?? HTTPResponseHead(statusCode: response.statusCode)
        let reason = ReasonPhrase.forStatus(head.statusCode)
        var text = "\(head.httpVersion) \(head.statusCode)\(reason.isEmpty ? "" : " " + reason)\n"
        let timing = response.timing ?? Timing()
        text += "Elapsed time: \(WriteOut.sixDecimals(timing.total))s\n"
        text +=
            "Name lookup: \(WriteOut.sixDecimals(timing.nameLookup))s, connect: \(WriteOut.sixDecimals(timing.connect))s, "
        text +=
            "TLS: \(WriteOut.sixDecimals(timing.tlsHandshake))s, first byte: \(WriteOut.sixDecimals(timing.firstByte))s\n"
        return text
    }

    /// Writes `response` with `body`, the whole of it.
    private func writeWhole(_ response: Response, body: Data) throws {
        if output.format == .json {
            writeEnvelope(response, body: body, file: nil)
            return
        }
        if output.format == .jsonl {
            // A body with no events is one event.
            let line = EventPrinter.jsonLine(StreamEvent(data: String(decoding: body, as: UTF8.self)))
            StandardStream.output.write(forTerminal(line.serializedString()) + "\n")
            return
        }
        if output.include || output.headersOnly {
            StandardStream.output.write(
                forTerminal(
                    Self.headText(
                        response.response ?? HTTPResponseHead(statusCode: response.statusCode),
                        sortingNames: output.sorted)))
            if output.headersOnly { return }
            StandardStream.output.write("\n")
        }
        if target.task.downloadsFile || !output.printsBody {
            return
        }
        if let keyPath = output.bodyKeyPath {
            writeValue(try Self.value(at: keyPath, in: body))
            return
        }
        writeBody(body, contentType: response.response?.headers.joinedValue(for: .contentType))
    }

    /// The exit status for a file (or standard output) that could not be written: as for the
    /// transport's error of the same kind.
    static func status(for error: FileError) -> ExitStatus {
        status(for: TransportError(error))
    }

    /// The exit status for a failure to put the body where it goes.
    static func status(for error: TransportError) -> ExitStatus {
        switch error.kind {
        case .destinationExists, .destinationProtected: .usage
        case .brokenPipe: .brokenPipe
        case .cannotWriteOutput: .cannotWriteOutput
        default: .transportFailure
        }
    }

    /// The value `keyPath` names in `body`; a miss (exit 1) says which part of the path missed.
    static func value(at keyPath: BodyKeyPath, in body: Data) throws -> JSONSpan {
        let prefix = "key path '\(keyPath)' not found in the response body: "
        guard let root = try? JSONSpan(validating: body) else {
            throw CommandFailure(
                .transportFailure, prefix + (body.isEmpty ? "the body is empty" : "the body is not JSON"))
        }
        do {
            return try keyPath.value(in: root)
        } catch {
            throw CommandFailure(.transportFailure, prefix + error.description)
        }
    }

    /// `--keypath`'s value, as `Response.mapString(atKeyPath:)` gives it, and a newline: written
    /// as it is made on a pipe, so a large value is not held twice.
    func writeValue(_ value: JSONSpan) {
        if stdoutIsTerminal {
            let text = value.stringValue ?? String(decoding: value.compactBytes(), as: UTF8.self)
            StandardStream.output.write(forTerminal(text) + "\n")
        } else if let text = value.stringValue {
            StandardStream.output.write(text)
            StandardStream.output.write("\n")
        } else {
            value.writeCompact { StandardStream.output.write($0) }
            StandardStream.output.write("\n")
        }
    }

    /// A whole body on a terminal: pretty JSON, text, or a note for binary data.
    func writeBody(_ data: Data, contentType: String?) {
        if formatsBody, !data.isEmpty, Self.looksLikeJSON(data, contentType: contentType),
            let json = try? JSONValue(parsing: data)
        {
            StandardStream.output.write(formattedJSON(json) + "\n")
            return
        }
        guard stdoutIsTerminal else {
            StandardStream.output.write(data)
            return
        }
        if data.isEmpty { return }
        guard let text = Self.printableText(data) else {
            let type = contentType.map { ", " + DisplayText.escaped($0) } ?? ""
            StandardStream.error.write(
                "moya-cli: binary body (\(data.count) bytes\(type)) not shown on a terminal; use --output FILE or a pipe\n"
            )
            return
        }
        StandardStream.output.write(forTerminal(text.hasSuffix("\n") ? text : text + "\n"))
    }

    /// Server text bound for standard output: on a terminal, its control characters are shown
    /// escaped (`DisplayText`), except the line breaks and tabs; a pipe or file gets it as it is.
    func forTerminal(_ text: String) -> String {
        stdoutIsTerminal ? DisplayText.escaped(text, keepingLineBreaks: true) : text
    }

    /// A JSON body as `--pretty` and `--sorted` say: indented, colored or not, its keys sorted;
    /// escaped for a terminal.
    func formattedJSON(_ json: JSONValue) -> String {
        let json = output.sorted ? Self.sortingKeys(json) : json
        if stdoutIsTerminal { return Self.terminalJSON(json, colors: colorsBody) }
        return colorsBody ? json.coloredString() : json.serializedString(options: .prettyPrinted)
    }

    /// `json` with every object's keys in order (`--sorted`), by their UTF-8 bytes.
    static func sortingKeys(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let members):
            .object(
                members.map { ($0.0, sortingKeys($0.1)) }.sorted {
                    Array($0.0.utf8).lexicographicallyPrecedes($1.0.utf8)
                }
            )
        case .array(let items): .array(items.map(sortingKeys))
        default: json
        }
    }

    /// JSON for a terminal: pretty, colored unless disabled, with the controls JSON leaves raw
    /// (C1, bidirectional overrides) shown escaped. The writer escapes ESC inside strings, so every
    /// ESC left is the color theme's own.
    func terminalJSON(_ json: JSONValue) -> String {
        Self.terminalJSON(json, colors: colorsStdout)
    }

    static func terminalJSON(_ json: JSONValue, colors: Bool) -> String {
        colors
            ? DisplayText.escaped(json.coloredString(), keepingLineBreaks: true, keepingOwnEscapes: true)
            : DisplayText.escaped(json.serializedString(options: .prettyPrinted), keepingLineBreaks: true)
    }

    /// The status line and headers, as on the wire.
    /// The status line and header fields as `-i` prints them; `sortingNames` (`--sorted`, as
    /// HTTPie's and xh's): the fields by name, those of one name in the order received.
    static func headText(_ head: HTTPResponseHead, sortingNames: Bool = false) -> String {
        let reason = ReasonPhrase.forStatus(head.statusCode)
        var text = "\(head.httpVersion) \(head.statusCode)\(reason.isEmpty ? "" : " " + reason)\n"
        var fields = Array(head.headers)
        if sortingNames {
            fields = fields.enumerated().sorted { left, right in
                left.element.name.canonicalName == right.element.name.canonicalName
                    ? left.offset < right.offset : left.element.name.canonicalName < right.element.name.canonicalName
            }.map(\.element)
        }
        for field in fields {
            text += "\(field.name.rawName): \(field.value)\n"
        }
        return text
    }

    /// `--format json`'s members before the body.
    func envelopeHead(_ response: Response) -> [(String, JSONValue)] {
        let headers: [JSONValue] = (response.response?.headers ?? HTTPFields()).map {
            .object([("name", .string($0.name.rawName)), ("value", .string($0.value))])
        }
        return [
            ("api", .string(target.apiName)),
            ("case", .string(target.caseName)),
            ("stubbed", .bool(isStubbed)),
            (
                "url",
                .string(response.response?.url?.absoluteString ?? response.request?.url?.absoluteString ?? target.url)
            ),
            ("status", .int(response.statusCode)),
            ("headers", .array(headers))
        ] + (cacheLedger?.status(of: response).map { [("cache", JSONValue.string($0.rawValue))] } ?? [])
    }

    /// `--format json`'s last member.
    func envelopeTiming(_ response: Response) -> JSONValue {
        let timing = response.timing ?? Timing()
        return .object([
            ("total", .double(timing.total)), ("nameLookup", .double(timing.nameLookup)),
            ("connect", .double(timing.connect)),
            ("tlsHandshake", .double(timing.tlsHandshake)), ("firstByte", .double(timing.firstByte))
        ])
    }

    /// `--format json`: the envelope, pretty on a terminal; with `--output`, the file's path and
    /// size (`file`) in place of the body.
    func writeEnvelope(_ response: Response, body: Data, file: (path: String, size: Int64)?) {
        var timing = [("timing", envelopeTiming(response))]
        if let file {
            timing.insert(
                ("output", .object([("path", .string(file.path)), ("size", .int(Int(file.size)))])), at: 0)
        }
        if stdoutIsTerminal {
            StandardStream.output.write(envelope(response, body: body, tail: timing))
        } else {
            EnvelopeWriter(
                head: envelopeHead(response), tail: timing,
                contentType: response.response?.headers.joinedValue(for: .contentType)
            )
            .write(body: body)
        }
    }

    /// `--format json` for a terminal: a stable document with everything a script needs, pretty.
    /// (A pipe gets the same document compact, from `EnvelopeWriter`.)
    func envelope(_ response: Response, body data: Data, tail: [(String, JSONValue)]) -> String {
        let contentType = response.response?.headers.joinedValue(for: .contentType)
        var body: JSONValue = .null
        var bodyBase64: JSONValue = .null
        if !data.isEmpty {
            if let json = try? JSONValue(parsing: data) {
                body = json
            } else if let text = TextCharset.decode(data, contentType: contentType)
                ?? String(validating: data, as: UTF8.self)
            {
                body = .string(text)
            } else {
                bodyBase64 = .string(data.base64EncodedString())
            }
        }
        let document: JSONValue = .object(
            envelopeHead(response) + [("body", body), ("bodyBase64", bodyBase64)] + tail)
        return terminalJSON(document) + "\n"
    }

    static func looksLikeJSON(_ data: Data, contentType: String?) -> Bool {
        if let contentType = contentType?.lowercased(), contentType.contains("json") { return true }
        guard let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The body as text when it is UTF-8 without control characters other than tab and newlines.
    static func printableText(_ data: Data) -> String? {
        guard let text = String(validating: data, as: UTF8.self) else { return nil }
        for scalar in text.unicodeScalars
        where scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t" {
            return nil
        }
        return text
    }
}

/// Checks an `--output` destination before anything is sent.
enum OutputFileCheck {
    /// `-o` replaces an existing file, as curl's does (so a rerun works); refused are a block
    /// device without `--force`, a folder, a socket, a dangling link and the protected places.
    static func checkAvailable(_ path: String, force: Bool) throws {
        guard path != "-" else { return }
        if !force && OutputFile.isBlockDevice(path) {
            throw CommandFailure(.usage, "\(path) is a block device; pass --force to write to it")
        }
        do {
            try OutputFile.checkWritable(path, overwrite: true)
        } catch {
            throw CommandFailure(ResponseWriter.status(for: error), error.message)
        }
    }
}
