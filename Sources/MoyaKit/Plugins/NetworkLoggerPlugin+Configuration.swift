#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
extension NetworkLoggerPlugin {
    /// What the logger logs, how it formats entries, where it writes them, and what it hides.
    public struct Configuration: Sendable {
        /// Receives the entries of one event.
        public typealias OutputType = @Sendable (_ target: any TargetType, _ items: [String]) -> Void

        /// Formats entries and bodies.
        public var formatter: Formatter
        /// Writes entries.
        public var output: OutputType
        /// Which parts are logged.
        public var logOptions: LogOptions
        /// What is hidden (secret header values and listed secrets).
        public var redactor: SecretRedactor

        /// Creates a configuration; by default entries go to standard output.
        public init(
            formatter: Formatter = Formatter(), output: @escaping OutputType = defaultOutput,
            logOptions: LogOptions = .default, redactor: SecretRedactor = SecretRedactor()
        ) {
            self.formatter = formatter
            self.output = output
            self.logOptions = logOptions
            self.redactor = redactor
        }

        /// Prints each entry on its own line.
        @Sendable public static func defaultOutput(target: any TargetType, items: [String]) {
            for item in items { print(item) }
        }
    }
}

extension NetworkLoggerPlugin.Configuration {
    /// Which parts of requests and responses are logged.
    public struct LogOptions: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        /// Creates options from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The request's method.
        public static let requestMethod = LogOptions(rawValue: 1 << 0)
        /// The request's body.
        public static let requestBody = LogOptions(rawValue: 1 << 1)
        /// The request's headers.
        public static let requestHeaders = LogOptions(rawValue: 1 << 2)
        /// The request as a `curl` command (method, headers and body included).
        public static let formatRequestAscURL = LogOptions(rawValue: 1 << 3)
        /// The body of a successful response.
        public static let successResponseBody = LogOptions(rawValue: 1 << 4)
        /// The body of a failed response.
        public static let errorResponseBody = LogOptions(rawValue: 1 << 5)

        /// Method and headers.
        public static let `default`: LogOptions = [requestMethod, requestHeaders]
        /// Everything but the `curl` form.
        public static let verbose: LogOptions = [
            requestMethod, requestHeaders, requestBody, successResponseBody, errorResponseBody
        ]
    }

    /// Turns log events into text.
    public struct Formatter: Sendable {
        /// Turns a body into text.
        public typealias DataFormatterType = @Sendable (Data) -> String
        /// Turns an identifier and a message into an entry.
        public typealias EntryFormatterType =
            @Sendable (_ identifier: String, _ message: String, _ target: any TargetType) -> String

        /// Formats entries.
        public var entry: EntryFormatterType
        /// Formats request bodies.
        public var requestData: DataFormatterType
        /// Formats response bodies.
        public var responseData: DataFormatterType

        /// Creates a formatter.
        public init(
            entry: @escaping EntryFormatterType = defaultEntryFormatter,
            requestData: @escaping DataFormatterType = defaultDataFormatter,
            responseData: @escaping DataFormatterType = defaultDataFormatter
        ) {
            self.entry = entry
            self.requestData = requestData
            self.responseData = responseData
        }

        /// The body as UTF-8 text, or a note saying it is not text.
        @Sendable public static func defaultDataFormatter(_ data: Data) -> String {
            String(validating: data, as: UTF8.self) ?? "## Cannot map data to String ##"
        }

        /// `Moya_Logger: [<ISO 8601 date>] <identifier>: <message>`.
        @Sendable public static func defaultEntryFormatter(identifier: String, message: String, target: any TargetType)
            -> String
        {
            "Moya_Logger: [\(Date().formatted(.iso8601))] \(identifier): \(message)"
        }
    }
}
