import TargetModel

/// The private types a generated file carries, so that it needs nothing but its module and
/// Foundation; each is written only when the file uses it.
enum GeneratedPrivateTypes {
    static let url = """
        /// A base URL from its text: checked by moya-cli when the target file was loaded, unless it reads `Configuration`.
        private enum GeneratedURL {
            static func make(_ text: String) -> URL {
                guard let url = URL(string: text) else { preconditionFailure("not a URL: \\(text)") }
                return url
            }
        }
        """

    /// A value as one path segment, for the Moya output: Moya joins `baseURL` and `path` with
    /// `appendingPathComponent`, which percent-escapes what a path may not hold (a space, `%`,
    /// `?`, `#`, non-ASCII) and would escape an escape again; so the value goes raw but for what
    /// would leave its segment (`/`, `.` and `..`), which Moya cannot send escaped.
    static let path = """
        /// A value as one path segment through Moya: raw, as Moya escapes it when it joins the URL,
        /// but for `/`, `.` and `..`, which would leave the segment: they are written escaped and
        /// so arrive as the text `%2F` and `%2E` (Moya cannot send an escaped `/` in a path).
        private enum GeneratedPath {
            static func escapeSegment(_ segment: String) -> String {
                if segment == "." || segment == ".." { return String(repeating: "%2E", count: segment.count) }
                return segment.replacingOccurrences(of: "/", with: "%2F")
            }
        }
        """

    static let json = """
        /// JSON written as moya-cli writes a body: compact, members in the target file's order, strings
        /// escaped as its JSON writer escapes them; `nil` members and elements (optional values not
        /// given) left out.
        private indirect enum GeneratedJSON {
            case null
            case bool(Bool)
            case int(Int)
            case double(Double)
            case string(String)
            /// JSON text as it is (a number as the target file writes it, a literal document).
            case raw(String)
            case array([GeneratedJSON?])
            case object([(String, GeneratedJSON?)])

            var data: Data { Data(text.utf8) }

            var text: String {
                switch self {
                case .null: return "null"
                case .bool(let flag): return flag ? "true" : "false"
                case .int(let number): return String(number)
                case .double(let number): return number.description
                case .string(let string): return Self.quoted(string)
                case .raw(let text): return text
                case .array(let items): return "[" + items.compactMap { $0?.text }.joined(separator: ",") + "]"
                case .object(let members):
                    let texts = members.compactMap { key, value in value.map { Self.quoted(key) + ":" + $0.text } }
                    return "{" + texts.joined(separator: ",") + "}"
                }
            }

            static func quoted(_ string: String) -> String {
                var output = "\\""
                for scalar in string.unicodeScalars {
                    switch scalar {
                    case "\\"": output += "\\\\\\""
                    case "\\\\": output += "\\\\\\\\"
                    case "\\u{08}": output += "\\\\b"
                    case "\\u{0C}": output += "\\\\f"
                    case "\\n": output += "\\\\n"
                    case "\\r": output += "\\\\r"
                    case "\\t": output += "\\\\t"
                    case "\\u{00}"..."\\u{1F}", "\\u{7F}":
                        let hex = String(scalar.value, radix: 16)
                        output += "\\\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    default:
                        output.unicodeScalars.append(scalar)
                    }
                }
                return output + "\\""
            }
        }
        """

    /// The MIME type moya-cli gives a multipart file part by its extension (`MultipartPartSpec`).
    static var mimeTypes: String {
        var text = """
            /// The MIME type moya-cli gives a multipart file part without one, from its extension.
            private enum GeneratedMIMEType {
                static func of(_ url: URL) -> String {
                    switch url.pathExtension.lowercased() {

            """
        for (pathExtension, type) in MultipartPartSpec.mimeTypesByExtension.sorted(by: { $0.key < $1.key }) {
            text += "        case \"\(pathExtension)\": return \"\(type)\"\n"
        }
        text += """
                    default: return "application/octet-stream"
                    }
                }
            }
            """
        return text
    }

    /// Property-list parameters for the Moya output (Alamofire 5 has no `PropertyListEncoding`).
    static let propertyListEncoding = """
        /// Parameters as a property list body (Alamofire 5, which Moya 15 uses, has no encoding for one).
        private struct GeneratedPlistEncoding: ParameterEncoding {
            var format: PropertyListSerialization.PropertyListFormat

            func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
                var request = try urlRequest.asURLRequest()
                guard let parameters else { return request }
                request.httpBody = try PropertyListSerialization.data(fromPropertyList: parameters, format: format, options: 0)
                if request.value(forHTTPHeaderField: "Content-Type") == nil {
                    request.setValue("application/x-plist", forHTTPHeaderField: "Content-Type")
                }
                return request
            }
        }
        """

    static let file = """
        /// Files a case reads and writes, as moya-cli reads and writes them.
        private enum GeneratedFile {
            /// A file's bytes (a sample file's, or a body's sent whole); empty when it cannot be read.
            static func contents(_ url: URL) -> Data {
                (try? Data(contentsOf: url)) ?? Data()
            }

            /// A download saved at `path` in `folder` (the app's `Configuration.downloadsFolder`), its
            /// missing folders created.
            static func destination(_ path: String, in folder: URL) -> DownloadDestination {
                { _, _ in (folder.appendingPathComponent(path), [.createIntermediateDirectories]) }
            }
        }
        """

    static let configurationStore = """
        /// A value behind a lock: the app sets `configuration`, requests read it on any thread.
        private final class GeneratedConfigurationStore<Value: Sendable>: @unchecked Sendable {
            private let lock = NSLock()
            private var stored: Value

            init(_ value: Value) {
                stored = value
            }

            var value: Value {
                get {
                    lock.lock()
                    defer { lock.unlock() }
                    return stored
                }
                set {
                    lock.lock()
                    defer { lock.unlock() }
                    stored = newValue
                }
            }
        }
        """
}
