extension Template {
    /// How placeholder values are escaped when inserted.
    public enum PlaceholderEscaping: Sendable, Hashable {
        /// Inserted as they are.
        case none
        /// Percent-escaped as one URL path segment: only RFC 3986 unreserved characters stay.
        case pathSegment
    }

    /// The text with placeholders and references filled in.
    ///
    /// - Parameters:
    ///   - arguments: the case's bound values, by name.
    ///   - environment: the process environment.
    ///   - variables: the selected environment's `variables` (already resolved); they win over `environment`.
    ///   - escaping: how placeholder values are escaped (`.pathSegment` for paths).
    ///   - redactingSecrets: writes `***` for secret references (logs, curl commands).
    /// - Throws: `TemplateRenderError` naming the unset variable and where it is referenced.
    public func render(
        arguments: [String: ArgumentValue] = [:], environment: [String: String] = [:], variables: [String: String] = [:],
        escaping: PlaceholderEscaping = .none, redactingSecrets: Bool = false
    ) throws(TemplateRenderError) -> String {
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .placeholder(let name, let mark):
                guard let argument = arguments[name] else { throw .missingArgument(name: name, mark: mark) }
                output += escaping == .pathSegment ? Self.percentEscapedPathSegment(argument.text) : argument.text
            case .environment(let reference):
                guard let value = variables[reference.name] ?? environment[reference.name] ?? reference.fallback else {
                    throw .unsetEnvironmentVariable(name: reference.name, mark: reference.mark)
                }
                output += redactingSecrets && reference.isSecret ? "***" : value
            }
        }
        return output
    }

    /// `text` percent-escaped so that it stays one path segment (`/` becomes `%2F`).
    public static func percentEscapedPathSegment(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}
