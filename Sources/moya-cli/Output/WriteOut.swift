import CurlTransport
import FileIO
import MoyaKit
import OrderedJSON
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

/// `-w`/`--write-out FORMAT`, as curl's: written after the body, with `%{NAME}` replaced by what
/// the transfer measured and `%header{NAME}` by a response header; `%{stderr}` and `%{stdout}`
/// switch where the rest goes, `%{json}` is every variable as one JSON object, `\n`, `\r`, `\t`
/// and `\\` are escapes, `%%` is `%`. The URL and headers are redacted as everywhere.
struct WriteOut: Equatable {
    enum Piece: Equatable {
        case text(String)
        case variable(String)
        case header(String)
        case toStandardError(Bool)
    }

    var pieces: [Piece]

    /// The variables, in `%{json}`'s order.
    static let variables = [
        "http_code", "response_code", "time_namelookup", "time_connect", "time_appconnect", "time_pretransfer",
        "time_starttransfer", "time_total", "size_download", "size_upload", "size_header", "size_request",
        "speed_download", "speed_upload", "url_effective", "num_redirects", "remote_ip", "remote_port",
        "content_type", "exitcode", "errormsg"
    ]

    /// Reads FORMAT; `@FILE` reads it from FILE (`@-`: standard input), at most 64 KiB.
    /// - Throws: `CommandFailure` (usage) for an unknown variable or an unreadable file.
    static func load(_ argument: String) throws -> WriteOut {
        var format = argument
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CommandFailure(
                    .usage, "-w @\(path): cannot read the format: \(InputFile.ReadProblem.reason(errno))")
            }
            defer { if descriptor != 0 { close(descriptor) } }
            do throws(InputFile.ReadProblem) {
                format = String(decoding: try InputFile.readAll(descriptor, limit: 64 << 10), as: UTF8.self)
            } catch {
                let reason =
                    switch error {
                    case .tooLarge: "it holds more than 64 KiB"
                    case .system(let code): InputFile.ReadProblem.reason(code)
                    }
                throw CommandFailure(.usage, "-w @\(path): cannot read the format: \(reason)")
            }
        }
        do throws(OptionsError) {
            return try WriteOut(parsing: format)
        } catch {
            throw CommandFailure(.usage, error.message)
        }
    }

    init(parsing format: String) throws(OptionsError) {
        pieces = []
        var text = ""
        var rest = format[...]
        func flush() {
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
        }
        while let first = rest.first {
            if first == "\\", let next = rest.dropFirst().first {
                switch next {
                case "n": text += "\n"
                case "r": text += "\r"
                case "t": text += "\t"
                case "\\": text += "\\"
                default: text += "\\" + String(next)
                }
                rest = rest.dropFirst(2)
            } else if first == "%" && rest.dropFirst().first == "%" {
                text += "%"
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("%header{"), let close = rest.firstIndex(of: "}") {
                flush()
                pieces.append(.header(String(rest[rest.index(rest.startIndex, offsetBy: 8)..<close])))
                rest = rest[rest.index(after: close)...]
            } else if rest.hasPrefix("%{header{"), let close = rest.firstRange(of: "}}") {
                flush()
                pieces.append(.header(String(rest[rest.index(rest.startIndex, offsetBy: 9)..<close.lowerBound])))
                rest = rest[close.upperBound...]
            } else if rest.hasPrefix("%{"), let close = rest.firstIndex(of: "}") {
                flush()
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                switch name {
                case "stderr": pieces.append(.toStandardError(true))
                case "stdout": pieces.append(.toStandardError(false))
                case "json": pieces.append(.variable(name))
                default:
                    guard Self.variables.contains(name) else {
                        throw OptionsError(
                            "-w: unknown variable %{\(name)}; known: " + Self.variables.joined(separator: ", ")
                                + ", header{NAME}, json, stderr, stdout")
                    }
                    pieces.append(.variable(name))
                }
                rest = rest[rest.index(after: close)...]
            } else {
                text.append(first)
                rest = rest.dropFirst()
            }
        }
        flush()
    }

    /// What the transfer left for the variables.
    struct Facts {
        var head: HTTPResponseHead?
        var statusCode: Int
        var timing: Timing
        var url: String
        var exitCode: Int32
        var errorMessage: String
        var redactor: SecretRedactor
    }

    /// Writes the format with `facts` (to stdout, or stderr after `%{stderr}`).
    func write(_ facts: Facts) {
        var toStandardError = false
        for piece in pieces {
            var text: String
            switch piece {
            case .text(let value):
                (toStandardError ? StandardStream.error : StandardStream.output).write(value)
                continue
            case .variable("json"): text = Self.json(facts).serializedString()
            case .variable(let name): text = Self.text(of: Self.value(name, facts))
            case .header(let name):
                text =
                    facts.head?.headers.first { $0.name.rawName.lowercased() == name.lowercased() }
                    .map { facts.redactor.redact(headerValue: $0.value, name: $0.name.rawName) } ?? ""
            case .toStandardError(let value):
                toStandardError = value
                continue
            }
            let stream = toStandardError ? StandardStream.error : StandardStream.output
            // A server's text bound for a terminal shows its control characters escaped.
            if Terminal.isTerminal(stream.fileDescriptor) { text = DisplayText.escaped(text) }
            stream.write(text)
        }
    }

    /// Every variable, as `%{json}` gives them.
    static func json(_ facts: Facts) -> JSONValue {
        .object(variables.map { ($0, value($0, facts)) })
    }

    private static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: value.serializedString()
        }
    }

    /// `value` with six decimals, as curl prints times (`0.012345`).
    static func sixDecimals(_ value: Double) -> String {
        let micros = value.isFinite && value > 0 ? Int((value * 1_000_000).rounded()) : 0
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// A variable's value: numbers as numbers (times in seconds, with curl's six decimals).
    static func value(_ name: String, _ facts: Facts) -> JSONValue {
        let timing = facts.timing
        let metrics = timing.metrics
        func seconds(_ value: Double) -> JSONValue {
            .number(JSONNumber(decimal: sixDecimals(value)) ?? JSONNumber(0))
        }
        switch name {
        case "http_code", "response_code": return .int(facts.statusCode)
        case "time_namelookup": return seconds(timing.nameLookup)
        case "time_connect": return seconds(timing.connect)
        case "time_appconnect": return seconds(timing.tlsHandshake)
        case "time_pretransfer": return seconds(metrics.preTransfer)
        case "time_starttransfer": return seconds(timing.firstByte)
        case "time_total": return seconds(timing.total)
        case "size_download": return .int(Int(metrics.downloadedBytes))
        case "size_upload": return .int(Int(metrics.uploadedBytes))
        case "size_header": return .int(metrics.headerBytes)
        case "size_request": return .int(metrics.requestBytes)
        case "speed_download": return .int(Int(metrics.downloadSpeed))
        case "speed_upload": return .int(Int(metrics.uploadSpeed))
        case "url_effective": return .string(facts.redactor.redact(facts.url))
        case "num_redirects": return .int(metrics.redirectCount)
        case "remote_ip": return .string(metrics.remoteAddress)
        case "remote_port": return .int(metrics.remotePort)
        case "content_type":
            return facts.head?.headers.joinedValue(for: .contentType).map { .string(facts.redactor.redact($0)) }
                ?? .null
        case "exitcode": return .int(Int(facts.exitCode))
        case "errormsg": return facts.errorMessage.isEmpty ? .null : .string(facts.errorMessage)
        default: return .null
        }
    }
}
