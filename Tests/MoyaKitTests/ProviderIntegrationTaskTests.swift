import Foundation
import MoyaKit
import TestServers
import XCTest

/// Every body-sending `Task` over real HTTP: what the server received, byte for byte.
final class ProviderIntegrationTaskTests: HTTPBinTestCase {
    private let provider = MoyaProvider<HTTPBin>(stubClosure: MoyaProvider.neverStub)

    /// Parameters exercising every value kind URL encoding handles.
    private let parameters: [String: any Sendable] = [
        "name": "Jürgen & co", "count": 3, "tags": ["a", "b"], "flag": true, "nested": ["k": "v"]
    ]
    private let encodedParameters =
        "count=3&flag=1&name=J%C3%BCrgen%20%26%20co&nested%5Bk%5D=v&tags%5B%5D=a&tags%5B%5D=b"

    func testRequestPlainSendsNoBody() throws {
        let response = try response(.get, with: provider)
        XCTAssertEqual(response.statusCode, 200)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "GET")
        XCTAssertEqual(received.target, "/get")
        XCTAssertEqual(received.bodyLength, 0)
        XCTAssertEqual(received.values(of: "X-Client"), ["MoyaKit-tests"])
        XCTAssertEqual(received.values(of: "Content-Length"), [])
        // The response is the server's own: its head, body, the request as sent and timing.
        XCTAssertEqual(try EchoedRequest(from: response.data).path, "/get")
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(response.response?.headers[.contentType], "application/json")
        XCTAssertEqual(response.response?.url, server.url("/get"))
        XCTAssertEqual(response.request?.url, server.url("/get"))
        XCTAssertGreaterThan(try XCTUnwrap(response.timing).total, 0)
    }

    func testEveryMethodReachesTheServer() throws {
        for method in [MoyaKit.Method.get, .post, .put, .patch, .delete, .options, .head] {
            let response = try response(.anything(method: method, task: .requestPlain), with: provider)
            XCTAssertEqual(response.statusCode, 200, "\(method)")
            XCTAssertEqual(server.receivedRequests.last?.method, method.rawValue)
            XCTAssertEqual(server.receivedRequests.last?.bodyLength, 0, "\(method)")
            // A HEAD response has no body; the others echo the request.
            XCTAssertEqual(response.data.isEmpty, method == .head, "\(method)")
        }
        XCTAssertEqual(server.receivedRequests.count, 7)
    }

    func testRequestDataSendsTheExactBytes() throws {
        let bytes = Data([0, 1, 2, 0xFF, 0xFE, 13, 10, 0x7F] + Array("tail".utf8))
        _ = try response(
            .anything(method: .put, task: .requestData(bytes), headers: ["Content-Type": "application/octet-stream"]),
            with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "PUT")
        XCTAssertEqual(received.body, bytes)
        XCTAssertEqual(received.values(of: "Content-Length"), ["\(bytes.count)"])
        XCTAssertEqual(received.values(of: "Content-Type"), ["application/octet-stream"])
        XCTAssertFalse(received.isChunked)
    }

    func testRequestJSONEncodableSendsTheEncodedValueAsJSON() throws {
        let value = Payload(title: "Hello \"world\"", createdAt: Date(timeIntervalSince1970: 0), tags: ["x"])
        _ = try response(.anything(task: .requestJSONEncodable(value)), with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "POST")
        XCTAssertEqual(received.values(of: "Content-Type"), ["application/json"])
        XCTAssertEqual(received.body.text, #"{"createdAt":-978307200,"tags":["x"],"title":"Hello \"world\""}"#)
        XCTAssertEqual(try JSONDecoder().decode(Payload.self, from: received.body), value)
    }

    func testRequestCustomJSONEncodableUsesTheGivenEncoder() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        let value = Payload(title: "T", createdAt: Date(timeIntervalSince1970: 0), tags: [])
        _ = try response(
            .anything(
                method: .patch, task: .requestCustomJSONEncodable(value, encoder: encoder),
                headers: ["Content-Type": "application/vnd.api+json"]), with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "PATCH")
        XCTAssertEqual(received.body.text, #"{"created_at":"1970-01-01T00:00:00Z","tags":[],"title":"T"}"#)
        // A Content-Type the target set wins over application/json.
        XCTAssertEqual(received.values(of: "Content-Type"), ["application/vnd.api+json"])
    }

    func testURLEncodingDestinations() throws {
        let cases: [(MoyaKit.Method, URLEncoding, inQuery: Bool)] = [
            (.get, .default, true), (.head, .default, true), (.delete, .default, true),
            (.post, .default, false), (.put, .default, false),
            (.post, .queryString, true), (.get, .httpBody, false)
        ]
        for (method, encoding, inQuery) in cases {
            _ = try response(
                .anything(method: method, task: .requestParameters(parameters: parameters, encoding: encoding)),
                with: provider)
            let received = try XCTUnwrap(server.receivedRequests.last)
            let label = "\(method) \(encoding.destination)"
            XCTAssertEqual(received.method, method.rawValue, label)
            if inQuery {
                XCTAssertEqual(received.target, "/anything?" + encodedParameters, label)
                XCTAssertEqual(received.bodyLength, 0, label)
                XCTAssertEqual(received.values(of: "Content-Type"), [], label)
            } else {
                XCTAssertEqual(received.target, "/anything", label)
                XCTAssertEqual(received.body.text, encodedParameters, label)
                XCTAssertEqual(
                    received.values(of: "Content-Type"), ["application/x-www-form-urlencoded; charset=utf-8"], label)
            }
        }
        // The server decodes the query back into the original values.
        let last = try XCTUnwrap(server.receivedRequests.first)
        XCTAssertEqual(
            last.queryItems.map { "\($0.name)=\($0.value)" },
            ["count=3", "flag=1", "name=Jürgen & co", "nested[k]=v", "tags[]=a", "tags[]=b"])
    }

    func testURLEncodingArrayAndBoolStyles() throws {
        let values: [String: any Sendable] = ["ids": [1, 2], "on": true, "off": false]
        let styles: [(URLEncoding, String)] = [
            (URLEncoding(destination: .queryString, arrayEncoding: .noBrackets), "ids=1&ids=2&off=0&on=1"),
            (
                URLEncoding(destination: .queryString, arrayEncoding: .indexInBrackets),
                "ids%5B0%5D=1&ids%5B1%5D=2&off=0&on=1"
            ),
            (
                URLEncoding(destination: .queryString, boolEncoding: .literal),
                "ids%5B%5D=1&ids%5B%5D=2&off=false&on=true"
            ),
            (
                URLEncoding(destination: .queryString, arrayEncoding: .custom { key, index in "\(key).\(index)" }),
                "ids.0=1&ids.1=2&off=0&on=1"
            )
        ]
        for (encoding, query) in styles {
            _ = try response(
                .anything(method: .get, task: .requestParameters(parameters: values, encoding: encoding)),
                with: provider)
            XCTAssertEqual(server.receivedRequests.last?.target, "/anything?" + query)
        }
    }

    func testEmptyParametersAddNoQuery() throws {
        _ = try response(
            .anything(method: .get, task: .requestParameters(parameters: [:], encoding: URLEncoding.default)),
            with: provider)
        XCTAssertEqual(try onlyReceivedRequest().target, "/anything")
    }

    func testQueryParametersAreAppendedToAQueryTheURLAlreadyHas() throws {
        let endpointClosure: MoyaProvider<HTTPBin>.EndpointClosure = { target in
            let endpoint = MoyaProvider.defaultEndpointMapping(for: target)
            return Endpoint(
                url: endpoint.url + "?fixed=yes", sampleResponseClosure: endpoint.sampleResponseClosure,
                method: endpoint.method, task: endpoint.task, httpHeaderFields: endpoint.httpHeaderFields)
        }
        let provider = MoyaProvider<HTTPBin>(endpointClosure: endpointClosure)
        _ = try response(.search(query: "a b", page: 2), with: provider)
        XCTAssertEqual(try onlyReceivedRequest().target, "/get?fixed=yes&page=2&q=a%20b")
    }

    func testJSONEncodingSendsSortedCompactJSON() throws {
        _ = try response(
            .anything(task: .requestParameters(parameters: parameters, encoding: JSONEncoding.default)), with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.target, "/anything")
        XCTAssertEqual(received.values(of: "Content-Type"), ["application/json"])
        XCTAssertEqual(
            received.body.text, #"{"count":3,"flag":true,"name":"Jürgen & co","nested":{"k":"v"},"tags":["a","b"]}"#)
    }

    func testJSONEncodingOnAGetStillSendsABody() throws {
        // As in Alamofire: JSONEncoding always writes the body, whatever the method.
        _ = try response(
            .anything(method: .get, task: .requestParameters(parameters: ["a": 1], encoding: JSONEncoding.default)),
            with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "GET")
        XCTAssertEqual(received.body.text, #"{"a":1}"#)
    }

    func testPropertyListEncodingSendsAPropertyList() throws {
        for encoding in [PropertyListEncoding.xml, .binary] {
            _ = try response(
                .anything(task: .requestParameters(parameters: parameters, encoding: encoding)), with: provider)
            let received = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertEqual(received.values(of: "Content-Type"), ["application/x-plist"])
            let isXML = received.body.text.hasPrefix("<?xml")
            XCTAssertEqual(isXML, encoding.format == .xml)
            let decoded = try XCTUnwrap(
                PropertyListSerialization.propertyList(from: received.body, format: nil) as? [String: Any])
            XCTAssertEqual(decoded["name"] as? String, "Jürgen & co")
            XCTAssertEqual(decoded["count"] as? Int, 3)
            XCTAssertEqual(decoded["flag"] as? Bool, true)
            XCTAssertEqual(decoded["tags"] as? [String], ["a", "b"])
            XCTAssertEqual(decoded["nested"] as? [String: String], ["k": "v"])
        }
    }

    func testRequestCompositeDataSendsBodyAndQuery() throws {
        let body = Data("raw body \u{1}".utf8)
        _ = try response(
            .anything(
                task: .requestCompositeData(bodyData: body, urlParameters: ["page": 2, "q": "x y"]),
                headers: ["Content-Type": "text/plain"]), with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "POST")
        XCTAssertEqual(received.target, "/anything?page=2&q=x%20y")
        XCTAssertEqual(received.body, body)
        XCTAssertEqual(received.values(of: "Content-Type"), ["text/plain"])
    }

    func testRequestCompositeParametersSendsEncodedBodyAndQuery() throws {
        let bodyEncodings: [(any ParameterEncoding, String, String)] = [
            (JSONEncoding.default, #"{"b":[1,2],"name":"n"}"#, "application/json"),
            (URLEncoding.httpBody, "b%5B%5D=1&b%5B%5D=2&name=n", "application/x-www-form-urlencoded; charset=utf-8")
        ]
        for (encoding, body, contentType) in bodyEncodings {
            let task = Task.requestCompositeParameters(
                bodyParameters: ["name": "n", "b": [1, 2]], bodyEncoding: encoding,
                urlParameters: ["token": "t/1?"])
            _ = try response(.anything(method: .put, task: task), with: provider)
            let received = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertEqual(received.method, "PUT")
            XCTAssertEqual(received.target, "/anything?token=t/1?")
            XCTAssertEqual(received.body.text, body)
            XCTAssertEqual(received.values(of: "Content-Type"), [contentType])
        }
    }

    func testCompositeParametersWithAQueryBodyEncodingFailsBeforeSending() throws {
        let task = Task.requestCompositeParameters(
            bodyParameters: ["a": 1], bodyEncoding: URLEncoding.queryString, urlParameters: [:])
        let error = try error(.anything(task: task), with: provider)
        guard case .parameterEncoding(let cause) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(cause as? ParameterEncodingError, .compositeBodyEncodingNotHTTPBody)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testUnencodableParameterFailsBeforeSending() throws {
        let error = try error(
            .anything(task: .requestParameters(parameters: ["x": Double.nan], encoding: JSONEncoding.default)),
            with: provider)
        guard case .parameterEncoding = error else { return XCTFail("got \(error)") }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }
}

/// An `Encodable` body.
struct Payload: Codable, Equatable, Sendable {
    var title: String
    var createdAt: Date
    var tags: [String]
}
