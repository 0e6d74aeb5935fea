import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Logs outgoing requests and incoming responses (Moya's `NetworkLoggerPlugin`), secrets redacted.
public final class NetworkLoggerPlugin: PluginType {
    /// What is logged, how, and where.
    public let configuration: Configuration

    /// Creates a logger.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// A logger with `LogOptions.default`.
    public static var `default`: NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: Configuration(logOptions: .default))
    }

    /// A logger with `LogOptions.verbose`.
    public static var verbose: NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: Configuration(logOptions: .verbose))
    }

    /// Logs the request.
    public func willSend(_ request: any RequestType, target: any TargetType) {
        configuration.output(target, requestEntries(request, target: target))
    }

    /// Logs the response or the error.
    public func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
        switch result {
        case .success(let response):
            configuration.output(target, responseEntries(response, target: target, isFromError: false))
        case .failure(let error):
            configuration.output(target, errorEntries(error, target: target))
        }
    }

    // MARK: Entries

    func requestEntries(_ request: any RequestType, target: any TargetType) -> [String] {
        let formatter = configuration.formatter
        let redactor = configuration.redactor
        if configuration.logOptions.contains(.formatRequestAscURL) {
            return [formatter.entry("Request", request.cURLDescription(redactor: redactor), target)]
        }
        guard let httpRequest = request.request else {
            return [formatter.entry("Request", "(invalid request)", target)]
        }
        var output = [
            formatter.entry("Request", redactor.redact(httpRequest.url?.absoluteString ?? "(no URL)"), target)
        ]
        if configuration.logOptions.contains(.requestHeaders) {
            var fields: [(String, String)] = request.sessionHeaders.sorted { $0.key < $1.key }
                .filter { httpRequest.value(forHTTPHeaderField: $0.key) == nil }
            fields += httpRequest.headers.combinedByName
            output.append(formatter.entry("Request Headers", describe(fields), target))
        }
        if configuration.logOptions.contains(.requestBody) {
            if let body = httpRequest.httpBody {
                output.append(formatter.entry("Request Body", redactor.redact(formatter.requestData(body)), target))
            } else if let file = httpRequest.bodyFileURL {
                output.append(formatter.entry("Request Body File", file.path, target))
            } else if let parts = httpRequest.multipartParts {
                let names = parts.map(\.name).joined(separator: ", ")
                output.append(
                    formatter.entry("Request Body", "multipart/form-data (\(parts.count) parts: \(names))", target))
            }
        }
        if configuration.logOptions.contains(.requestMethod), let method = httpRequest.httpMethod {
            output.append(formatter.entry("HTTP Request Method", method, target))
        }
        return output
    }

    func responseEntries(_ response: Response, target: any TargetType, isFromError: Bool) -> [String] {
        let formatter = configuration.formatter
        var output: [String] = []
        if let head = response.response {
            let url = head.url.map { " \(configuration.redactor.redact($0.absoluteString))" } ?? ""
            let headers = describe(head.headers.combinedByName)
            output.append(
                formatter.entry("Response", "\(head.httpVersion) \(head.statusCode)\(url) \(headers)", target))
        } else {
            output.append(formatter.entry("Response", "Received empty network response for \(target).", target))
        }
        if (isFromError && configuration.logOptions.contains(.errorResponseBody))
            || configuration.logOptions.contains(.successResponseBody)
        {
            var body = configuration.redactor.redact(formatter.responseData(response.data))
            if !response.hasWholeBody {
                // Streamed or dropped: only its first bytes were kept.
                body +=
                    (body.isEmpty ? "" : "\n") + "[\(response.bodyLength) bytes in all; "
                    + (response.data.isEmpty ? "not kept]" : "the first \(response.data.count) shown]")
            }
            output.append(formatter.entry("Response Body", body, target))
        }
        return output
    }

    func errorEntries(_ error: MoyaError, target: any TargetType) -> [String] {
        // Validation failures still have a response worth showing.
        if let response = error.response {
            return responseEntries(response, target: target, isFromError: true)
        }
        let message = configuration.redactor.redact("Error calling \(target) : \(error)")
        return [configuration.formatter.entry("Error", message, target)]
    }

    /// `["Name": "value", ...]` in order, values redacted.
    private func describe(_ fields: [(String, String)]) -> String {
        let redactor = configuration.redactor
        let items = fields.map { "\"\($0.0)\": \"\(redactor.redact(headerValue: $0.1, name: $0.0))\"" }
        return items.isEmpty ? "[:]" : "[" + items.joined(separator: ", ") + "]"
    }
}
