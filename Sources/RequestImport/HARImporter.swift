import OrderedJSON
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The requests of one origin in a HAR capture: one API.
package struct HARAPI: Sendable {
    /// `scheme://host[:port]`: the API's base URL.
    package var origin: String
    /// The API's name: `--api`, or made from the host (`api.example.com` → `api-example-com`).
    package var name: String
    /// One request per distinct method and path, the first recorded, with its case name.
    package var requests: [(name: String, request: ImportedRequest)]
    /// How many entries repeated a method and path already taken (left out).
    package var repeatedCount: Int
    /// The capture's entry each request came from, by the request's index.
    package var entryIndices: [Int] = []

    /// The target file's text and its cases.
    package func targetFileText(header: [String]) throws(RequestImportError) -> (text: String, cases: [ImportedCase]) {
        var cases: [ImportedCase] = []
        for (offset, named) in requests.enumerated() {
            do throws(RequestImportError) {
                cases.append(
                    try named.request.importedCase(
                        named: named.name, apiName: name, checkableOffline: true, emptySecretFallback: true))
            } catch {
                // A capture's place is its entry, not a line and column.
                throw RequestImportError(error.message + " (at $.log.entries[\(entryIndices[offset])])")
            }
        }
        let root = [
            YAMLText.Entry("api", .string(name)),
            YAMLText.Entry("baseURL", .string(NewCase.literal(origin))),
            YAMLText.Entry("cases", .map(cases.map { YAMLText.Entry($0.name, .map($0.members)) }))
        ]
        let text = YAMLText.render(root, header: header)
        try TargetFileBudget.check(text, cases: cases.count, advice: "save a capture of fewer requests")
        return (text, cases)
    }
}

/// Reads a HAR 1.2 capture (a browser's network panel, "Save all as HAR") into APIs: its
/// requests grouped by origin, each distinct method and path a case, the recorded response its
/// sample; see moya-cli-import(1).
package enum HARImporter {
    /// The largest capture read, and the most entries: a larger one is refused, not truncated.
    package static let maximumInputSize = 64 << 20
    package static let maximumEntries = 100_000

    /// Headers a case does not carry: HTTP/2 pseudo-headers, hop-by-hop and framing fields, and
    /// those moya-cli sets itself.
    static let leftOutHeaders: Set<String> = [
        "host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade",
        "proxy-connection", "expect", "accept-encoding"
    ]

    /// Headers the browser adds, not the API: its cache's conditions (`If-None-Match`,
    /// `If-Modified-Since`: every live call would answer 304), fetch metadata and client hints
    /// (every `Sec-` header), and its own preferences. A case does not carry them.
    static let browserHeaders: Set<String> = [
        "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "cache-control",
        "pragma", "upgrade-insecure-requests", "alt-used", "dnt", "purpose", "x-purpose", "priority",
        "save-data", "device-memory", "viewport-width", "dpr", "downlink", "ect", "rtt"
    ]

    /// Whether the header `name` is the browser's (``browserHeaders``, `Sec-…`), not the API's.
    static func isBrowserHeader(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return lowercased.hasPrefix("sec-") || browserHeaders.contains(lowercased)
    }

    /// The APIs of the capture in `bytes`, in the order their origins first appear.
    /// - Parameters:
    ///   - apiName: the name for the only API (`--api`); several origins need `only`.
    ///   - only: hosts to import (`--only`); empty: all.
    package static func read(_ bytes: [UInt8], apiName: String?, only: [String]) throws(RequestImportError)
        -> [HARAPI]
    {
        guard bytes.count <= maximumInputSize else {
            throw RequestImportError(
                "the capture is \(bytes.count) bytes; at most \(maximumInputSize >> 20) MiB is read")
        }
        let root: JSONValue
        do throws(JSONParseError) {
            root = try JSONValue(parsing: bytes)
        } catch {
            throw RequestImportError(
                "not JSON: \(error.description)", at: TextPlace(line: error.line, column: error.column))
        }
        guard let entries = root["log"]?["entries"]?.arrayValue else {
            throw RequestImportError("not a HAR capture: no log.entries array (at $.log.entries)")
        }
        guard entries.count <= maximumEntries else {
            throw RequestImportError(
                "the capture has \(entries.count) entries; at most \(maximumEntries) are read (save fewer requests)")
        }
        var apis: [HARAPI] = []
        // The request index of each method and path template, by origin.
        var seen: [String: [String: Int]] = [:]
        // The case names of each API so far, by the API's index.
        var caseNames: [Set<String>] = []
        for (index, entry) in entries.enumerated() {
            let path = "$.log.entries[\(index)]"
            var request = try Self.request(entry, at: path)
            let host = hostName(of: request.url.origin)
            let authority = String(request.url.origin.split(separator: "/").last ?? "")
            guard only.isEmpty || only.contains(where: { [host, authority].contains($0.lowercased()) }) else {
                continue
            }
            let (template, numbers) = numericSegments(request.url.path)
            let key = request.method + " " + template
            var apiIndex = apis.firstIndex { $0.origin == request.url.origin }
            if apiIndex == nil {
                // Two origins of one host (http and https) must not share a file.
                var name = apiName ?? defaultName(forHost: authority)
                let base = name
                var number = 2
                while apis.contains(where: { $0.name == name }) {
                    name = base + "-\(number)"
                    number += 1
                }
                apis.append(HARAPI(origin: request.url.origin, name: name, requests: [], repeatedCount: 0))
                caseNames.append([])
                apiIndex = apis.count - 1
            }
            guard let apiIndex else { continue }
            if let known = seen[request.url.origin, default: [:]][key] {
                // The same case again (`/items/124` after `/items/123`): its response may be the
                // success the first lacked, or another status worth a named sample.
                apis[apiIndex].repeatedCount += 1
                if let sample = request.sample {
                    apis[apiIndex].requests[known].request.record(sample, values: numbers)
                }
                continue
            }
            seen[request.url.origin, default: [:]][key] = apis[apiIndex].requests.count
            request.pathValues = numbers
            let name = caseName(
                method: request.method, path: template.replacing("{}", with: "id"), taken: caseNames[apiIndex])
            caseNames[apiIndex].insert(name)
            apis[apiIndex].requests.append((name, request))
            apis[apiIndex].entryIndices.append(index)
        }
        for api in apis.indices {
            for index in apis[api].requests.indices { apis[api].requests[index].request.makeSuccessTheDefault() }
        }
        if let apiName, apis.count > 1 {
            throw RequestImportError(
                "--api \(apiName) names one API, and the capture has \(apis.count) hosts (\(apis.map { hostName(of: $0.origin) }.joined(separator: ", "))): choose one with --only HOST"
            )
        }
        guard !apis.isEmpty else {
            throw RequestImportError(
                only.isEmpty ? "the capture has no requests" : "--only \(only.joined(separator: ", ")) matches no host")
        }
        return apis
    }

    /// One entry's request, and its response as the sample.
    static func request(_ entry: JSONValue, at path: String) throws(RequestImportError) -> ImportedRequest {
        func string(_ value: JSONValue?, _ at: String) throws(RequestImportError) -> String {
            guard let text = value?.stringValue else { throw RequestImportError("not a string (at \(at))") }
            return text
        }
        let method = try string(entry["request"]?["method"], path + ".request.method")
        guard !method.isEmpty, method.utf8.allSatisfy(CurlRequestBuilder.isTokenByte) else {
            throw RequestImportError("'\(method.prefix(40))' is not an HTTP method (at \(path).request.method)")
        }
        let urlText = try string(entry["request"]?["url"], path + ".request.url")
        var url: RequestURL
        do throws(RequestImportError) {
            url = try RequestURL(urlText)
        } catch {
            throw RequestImportError(error.message + " (at \(path).request.url)")
        }
        url.userInfo = nil
        var request = ImportedRequest(place: TextPlace(line: 0, column: 0), method: method.uppercased(), url: url)
        var notes: [(place: TextPlace, message: String)] = []
        var headers: [(name: String, value: String, isSecret: Bool, place: TextPlace)] = []
        for (offset, header) in (entry["request"]?["headers"]?.arrayValue ?? []).enumerated() {
            let at = "\(path).request.headers[\(offset)]"
            let name = try string(header["name"], at + ".name")
            let value = try string(header["value"], at + ".value")
            if name.hasPrefix(":") || leftOutHeaders.contains(name.lowercased()) || isBrowserHeader(name) { continue }
            guard !name.isEmpty, name.utf8.allSatisfy(CurlRequestBuilder.isTokenByte) else {
                throw RequestImportError("the header name '\(name.prefix(100))' is not a header name (at \(at).name)")
            }
            guard !value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else {
                throw RequestImportError("the header \(name)'s value holds CR, LF or NUL (at \(at).value)")
            }
            headers.append((name, value, false, request.place))
        }
        if let postData = entry["request"]?["postData"], postData != .null {
            var bytes: [UInt8]
            if let text = postData["text"]?.stringValue {
                bytes = Array(text.utf8)
            } else {
                bytes = []
                for (offset, parameter) in (postData["params"]?.arrayValue ?? []).enumerated() {
                    let at = "\(path).request.postData.params[\(offset)]"
                    if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
                    bytes += CurlRequestBuilder.curlEscaped(
                        Array(try string(parameter["name"], at + ".name").utf8), spaceAsPlus: true)
                    bytes.append(UInt8(ascii: "="))
                    bytes += CurlRequestBuilder.curlEscaped(
                        Array((parameter["value"]?.stringValue ?? "").utf8), spaceAsPlus: true)
                }
            }
            if MethodSemantics.carriesNoBody(request.method) {
                if !bytes.isEmpty {
                    notes.append(
                        (request.place, "the \(request.method) request's body is left out: a case cannot send one"))
                }
            } else {
                request.body = .bytes(bytes)
                if let type = postData["mimeType"]?.stringValue, !type.isEmpty,
                    !headers.contains(where: { $0.name.lowercased() == "content-type" })
                {
                    guard !type.utf8.contains(where: { $0 < 0x20 }) else {
                        throw RequestImportError(
                            "the body's type holds control characters (at \(path).request.postData.mimeType)")
                    }
                    headers.append(("Content-Type", type, false, request.place))
                }
            }
        }
        request.headers = CurlRequestBuilder.joined(headers, notes: &notes)
        request.query = CurlRequestBuilder.queryPairs(url.query)
        request.sample = try sample(entry["response"], at: path + ".response", notes: &notes)
        request.notes = notes
        return request
    }

    /// The recorded response, its body decoded from base64 when the capture says so.
    static func sample(_ response: JSONValue?, at path: String, notes: inout [(place: TextPlace, message: String)])
        throws(RequestImportError) -> NewCase.Sample?
    {
        guard let response, let status = response["status"]?.intValue else { return nil }
        guard (100...599).contains(status) else {
            notes.append(
                (TextPlace(line: 0, column: 0), "the recorded status \(status) is not an HTTP status: no sample"))
            return nil
        }
        let content = response["content"]
        let type = content?["mimeType"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        if let type, type.utf8.contains(where: { $0 < 0x20 }) {
            throw RequestImportError("the response's type holds control characters (at \(path).content.mimeType)")
        }
        var body: [UInt8] = []
        if let text = content?["text"]?.stringValue {
            if content?["encoding"]?.stringValue == "base64" {
                guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                    throw RequestImportError(
                        "the response body is not base64, as its encoding says (at \(path).content.text)")
                }
                body = Array(data)
            } else {
                body = Array(text.utf8)
            }
        }
        return NewCase.Sample(status: status, contentType: type, body: body)
    }

    /// The path with each segment of digits as `{}` (`/items/123` → `/items/{}`), and the
    /// values those segments become, named `id`, `id2`, … with the digits seen: requests that
    /// differ only by a number are one case with a value.
    static func numericSegments(_ path: String) -> (template: String, values: [ImportedRequest.PathValue]) {
        var values: [ImportedRequest.PathValue] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).enumerated().map {
            offset, segment -> Substring in
            guard !segment.isEmpty, segment.count <= 18, segment.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return segment
            }
            values.append(
                ImportedRequest.PathValue(
                    name: values.isEmpty ? "id" : "id\(values.count + 1)", segment: offset, example: String(segment)))
            return "{}"
        }
        return (segments.joined(separator: "/"), values)
    }

    /// `api.example.com` from `https://api.example.com:8443`.
    static func hostName(of origin: String) -> String {
        let afterScheme = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        if afterScheme.hasPrefix("[") { return String(afterScheme.prefix { $0 != "]" }) + "]" }
        return String(afterScheme.prefix { $0 != ":" })
    }

    /// An API name from a host and port: `api.example.com` → `api-example-com`,
    /// `127.0.0.1:8080` → `api-127-0-0-1-8080` (`api-` before a digit).
    static func defaultName(forHost host: String) -> String {
        var name = String(host.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII ? $0 : "-" })
        while name.contains("--") { name = name.replacing("--", with: "-") }
        name = String(name.drop { $0 == "-" }.reversed().drop { $0 == "-" }.reversed())
        if !(name.first?.isLetter ?? false) { name = "api-" + name }
        return name
    }

    /// `getV1Users42` from `GET /v1/users/42`: the method, then each word of the path; `2`, `3`,
    /// … when taken.
    static func caseName(method: String, path: String, taken: Set<String>) -> String {
        var name = method.lowercased().filter { $0.isLetter && $0.isASCII }
        if name.isEmpty { name = "request" }
        var words: [String] = []
        var word = ""
        for character in CurlRequestBuilder.percentDecoded(path, plusIsSpace: false) {
            if character.isASCII && (character.isLetter || character.isNumber) {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        if words.isEmpty { words = ["root"] }
        for word in words { name += word.prefix(1).uppercased() + word.dropFirst() }
        name = String(name.prefix(60))
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + "\(number)"
            number += 1
        }
        return candidate
    }
}
