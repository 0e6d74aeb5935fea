import Foundation
import MoyaKit
import OrderedJSON
import XCTest

/// The classic custom encoding of Moya's docs: the array under "jsonArray" as the whole body.
struct JSONArrayEncoding: ParameterEncoding {
    static let `default` = JSONArrayEncoding()

    func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest {
        guard let array = parameters?["jsonArray"] else { return request }
        return try JSONEncoding.default.encode(request, withJSONObject: array)
    }
}

final class BodyEncodingTests: XCTestCase {
    private let request: URLRequest = {
        var request = URLRequest(url: URL(string: "https://example.com/items")!)
        request.httpMethod = "POST"
        return request
    }()

    func testJSONEncodingWritesSortedCompactJSON() throws {
        let encoded = try JSONEncoding.default.encode(
            request, with: ["b": [1, 2], "a": ["y": true, "x": "é\""] as [String: any Sendable]])
        XCTAssertEqual(encoded.httpBody?.text, #"{"a":{"x":"é\"","y":true},"b":[1,2]}"#)
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    func testJSONEncodingPrettyPrintedSendsWhatFoundationWrites() throws {
        // Moya's JSONEncoding.prettyPrinted is JSONSerialization's `.prettyPrinted`: the same bytes.
        let parameters: [String: any Sendable] = [
            "a": 1, "url": "https://example.com/x", "empty": [String: any Sendable](),
            "list": ["b", 2] as [any Sendable]
        ]
        let encoded = try JSONEncoding.prettyPrinted.encode(request, with: parameters)
        let reference = try JSONSerialization.data(
            withJSONObject: [
                "a": 1, "url": "https://example.com/x", "empty": [String: Any](), "list": ["b", 2] as [Any]
            ],
            options: [.prettyPrinted, .sortedKeys])
        XCTAssertEqual(encoded.httpBody?.text, String(decoding: reference, as: UTF8.self))
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    func testJSONEncodingKeepsContentTypeAndOrderedJSONValue() throws {
        var custom = request
        custom.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
        let encoded = try JSONEncoding.default.encode(custom, with: ["doc": JSONValue.object([("z", 1), ("a", 2)])])
        XCTAssertEqual(encoded.httpBody?.text, #"{"doc":{"z":1,"a":2}}"#)
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/vnd.api+json")
    }

    func testCustomEncodingSendsATopLevelArray() throws {
        let encoded = try JSONArrayEncoding.default.encode(
            request,
            with: [
                "jsonArray": [["id": 1] as [String: any Sendable], ["id": 2] as [String: any Sendable]]
                    as [any Sendable]
            ])
        XCTAssertEqual(encoded.httpBody?.text, #"[{"id":1},{"id":2}]"#)
    }

    func testPropertyListRoundTripsXMLAndBinary() throws {
        let parameters: [String: any Sendable] = [
            "name": "Moya", "count": 3, "ratio": 0.5, "flag": true, "tags": ["a", "b"],
            "nested": ["k": "v"] as [String: any Sendable]
        ]
        let expected = try JSONValue(parameters: parameters)
        for encoding in [PropertyListEncoding.xml, PropertyListEncoding.binary] {
            let encoded = try encoding.encode(request, with: parameters)
            let body = try XCTUnwrap(encoded.httpBody)
            XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-plist")
            XCTAssertEqual(try PropertyListDecoder().decode(JSONValue.self, from: body), expected)
            if encoding.format == .binary {
                XCTAssertTrue(body.text.hasPrefix("bplist00"))
            } else {
                XCTAssertTrue(body.text.contains("<key>name</key>"), body.text)
            }
        }
    }

    func testPropertyListRejectsNull() {
        XCTAssertThrowsError(
            try PropertyListEncoding.default.encode(
                request, with: ["a": ["b": JSONValue.null] as [String: any Sendable]])
        ) { error in
            XCTAssertEqual(error as? ParameterEncodingError, .propertyListNull(keyPath: "a.b"))
        }
    }
}
