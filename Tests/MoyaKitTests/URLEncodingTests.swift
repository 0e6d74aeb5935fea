import Foundation
import MoyaKit
import OrderedJSON
import XCTest

final class URLEncodingTests: XCTestCase {
    private let getRequest = URLRequest(url: URL(string: "https://example.com/search")!)

    private func query(_ parameters: [String: any Sendable], _ encoding: URLEncoding = .default) throws -> String? {
        try encoding.encode(getRequest, with: parameters).url?.query(percentEncoded: true)
    }

    func testKeysAreSortedAndEscapedAsAlamofire() throws {
        let parameters: [String: any Sendable] = [
            "b": "x y", "a": "1&2=3+4", "path": "/a?b", "emoji": "é", "reserved": ":#[]@!$'()*,;", "safe": "-._~"
        ]
        XCTAssertEqual(
            try query(parameters),
            "a=1%262%3D3%2B4&b=x%20y&emoji=%C3%A9&path=/a?b&reserved=%3A%23%5B%5D%40%21%24%27%28%29%2A%2C%3B&safe=-._~")
    }

    func testArrayEncodings() throws {
        let parameters: [String: any Sendable] = ["ids": [1, 2]]
        XCTAssertEqual(try query(parameters), "ids%5B%5D=1&ids%5B%5D=2")
        XCTAssertEqual(try query(parameters, URLEncoding(arrayEncoding: .noBrackets)), "ids=1&ids=2")
        XCTAssertEqual(try query(parameters, URLEncoding(arrayEncoding: .indexInBrackets)), "ids%5B0%5D=1&ids%5B1%5D=2")
        XCTAssertEqual(
            try query(parameters, URLEncoding(arrayEncoding: .custom { key, index in "\(key).\(index)" })),
            "ids.0=1&ids.1=2")
    }

    func testBoolEncodings() throws {
        XCTAssertEqual(try query(["on": true, "off": false]), "off=0&on=1")
        XCTAssertEqual(try query(["on": true, "off": false], URLEncoding(boolEncoding: .literal)), "off=false&on=true")
    }

    func testNestedDictionariesAndNull() throws {
        let parameters: [String: any Sendable] = [
            "user": ["name": "n", "tags": ["a"], "age": 3.5] as [String: any Sendable],
            "none": JSONValue.null
        ]
        XCTAssertEqual(try query(parameters), "none=&user%5Bage%5D=3.5&user%5Bname%5D=n&user%5Btags%5D%5B%5D=a")
    }

    func testAppendsToAnExistingQuery() throws {
        let request = URLRequest(url: URL(string: "https://example.com/s?z=1#top")!)
        let encoded = try URLEncoding.queryString.encode(request, with: ["a": 1])
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/s?z=1&a=1#top")
        XCTAssertEqual(try URLEncoding.default.encode(request, with: [:]).url, request.url)
        XCTAssertEqual(try URLEncoding.default.encode(request, with: nil), request)
    }

    func testMethodDependentDestination() throws {
        for method in ["HEAD", "DELETE"] {
            var request = getRequest
            request.httpMethod = method
            XCTAssertEqual(try URLEncoding.default.encode(request, with: ["a": 1]).url?.query, "a=1")
        }
        var post = getRequest
        post.httpMethod = "POST"
        let encoded = try URLEncoding.default.encode(post, with: ["b": "x y", "a": [1, 2]])
        XCTAssertEqual(encoded.url, post.url)
        XCTAssertEqual(encoded.httpBody?.text, "a%5B%5D=1&a%5B%5D=2&b=x%20y")
        XCTAssertEqual(
            encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testHTTPBodyDestinationKeepsAContentTypeAlreadySet() throws {
        var request = getRequest
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let encoded = try URLEncoding.httpBody.encode(request, with: ["a": "1"])
        XCTAssertEqual(encoded.httpBody?.text, "a=1")
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "text/plain")
        XCTAssertEqual(encoded.url, request.url)
    }

    func testUnsupportedValueFails() {
        final class Opaque: @unchecked Sendable {}
        XCTAssertThrowsError(try URLEncoding.default.encode(getRequest, with: ["x": Opaque()])) { error in
            guard case .invalidValue(let conversion)? = error as? ParameterEncodingError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(conversion.keyPath, "x")
        }
    }
}
