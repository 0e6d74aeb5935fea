import HTTPTypes
import OrderedJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One stored response: its status, header fields and body; when it was requested and received
/// (for its age, RFC 9111 §4.2.3); and the request header values its `Vary` names, which a later
/// request must have for the entry to answer it (§4.1).
///
/// On disk: one line of JSON (everything but the body, with the body's length) and the body's
/// bytes. A file whose body is not that long (cut short), or whose line is not that JSON, is no
/// entry: the request goes to the server.
package struct CacheEntry: Sendable {
    package var method: String
    package var url: String
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data
    /// Seconds since 1970 when the request was sent and the response received.
    package var requestTime: Double
    package var responseTime: Double
    /// Lowercased names the response's `Vary` lists, with the request's values then (`nil`: absent).
    package var varied: [(name: String, value: String?)]
    /// In the URL's own file of an answer that varies (`ResponseCacheStore`): the token that names
    /// this set of variants, and the file of each variant stored.
    package var variantGeneration: String?
    package var variantFiles: [String] = []

    package init(
        method: String, url: String, status: Int, headers: [(name: String, value: String)], body: Data,
        requestTime: Double, responseTime: Double, varied: [(name: String, value: String?)]
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varied = varied
    }

    /// The header fields, as `HTTPFields`.
    package var fields: HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return fields
    }

    /// The entry as it is written.
    package func serialized() -> Data {
        let head = JSONValue.object([
            ("version", .int(1)),
            ("method", .string(method)),
            ("url", .string(url)),
            ("status", .int(status)),
            ("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })),
            ("requestTime", .double(requestTime)),
            ("responseTime", .double(responseTime)),
            ("vary", .array(varied.map { .array([.string($0.name), $0.value.map(JSONValue.string) ?? .null]) })),
            ("variantGeneration", variantGeneration.map(JSONValue.string) ?? .null),
            ("variantFiles", .array(variantFiles.map(JSONValue.string))),
            ("bodyLength", .int(body.count))
        ])
        var data = head.serialized()
        data.append(UInt8(ascii: "\n"))
        data.append(body)
        return data
    }

    /// The entry `data` holds, or `nil` when it holds none (a cut or altered file).
    package init?(serialized data: Data) {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")),
            let head = try? JSONValue(parsing: data[data.startIndex..<newline]),
            head["version"]?.intValue == 1,
            let method = head["method"]?.stringValue, let url = head["url"]?.stringValue,
            let status = head["status"]?.intValue, (100...599).contains(status),
            let headerItems = head["headers"]?.arrayValue,
            let requestTime = head["requestTime"]?.doubleValue, let responseTime = head["responseTime"]?.doubleValue,
            let varyItems = head["vary"]?.arrayValue,
            let length = head["bodyLength"]?.intValue
        else { return nil }
        let body = data[data.index(after: newline)...]
        guard body.count == length else { return nil }
        var headers: [(name: String, value: String)] = []
        for item in headerItems {
            guard let pair = item.arrayValue, pair.count == 2, let name = pair[0].stringValue,
                let value = pair[1].stringValue, HTTPField.Name(name) != nil,
                !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else { return nil }
            headers.append((name, value))
        }
        var varied: [(name: String, value: String?)] = []
        for item in varyItems {
            guard let pair = item.arrayValue, pair.count == 2, let name = pair[0].stringValue else { return nil }
            varied.append((name, pair[1].stringValue))
        }
        self.init(
            method: method, url: url, status: status, headers: headers, body: Data(body), requestTime: requestTime,
            responseTime: responseTime, varied: varied)
        variantGeneration = head["variantGeneration"]?.stringValue
        // Only names the store itself makes: a file naming `../x` is not believed.
        let files = head["variantFiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard files.allSatisfy(ResponseCacheStore.isEntryFileName) else { return nil }
        variantFiles = files
    }
}
