import Foundation
import MoyaKit
import XCTest

final class ResponseTests: XCTestCase {
    private struct Repo: Decodable, Equatable {
        let name: String
        let stars: Int
    }

    private func response(_ body: String, status: Int = 200) -> Response {
        Response(statusCode: status, data: Data(body.utf8))
    }

    func testFilters() throws {
        XCTAssertNoThrow(try response("", status: 204).filterSuccessfulStatusCodes())
        XCTAssertNoThrow(try response("", status: 302).filterSuccessfulStatusAndRedirectCodes())
        XCTAssertNoThrow(try response("", status: 418).filter(statusCode: 418))
        XCTAssertNoThrow(try response("", status: 404).filter(statusCodes: 400..<500))
        XCTAssertThrowsError(try response("", status: 302).filterSuccessfulStatusCodes()) { error in
            guard case .statusCode(let failed)? = error as? MoyaError else { return XCTFail("\(error)") }
            XCTAssertEqual(failed.statusCode, 302)
        }
        XCTAssertThrowsError(try response("", status: 500).filterSuccessfulStatusAndRedirectCodes())
    }

    func testMapJSON() throws {
        XCTAssertEqual(try response(#"{"b": [1, "x"], "a": null}"#).mapJSON(), ["b": [1, "x"], "a": nil])
        XCTAssertEqual(try response("42").mapJSON(), 42)
        XCTAssertEqual(try response("").mapJSON(failsOnEmptyData: false), .null)
        XCTAssertThrowsError(try response("").mapJSON()) { error in
            guard case .jsonMapping? = error as? MoyaError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try response("{oops}").mapJSON())
    }

    func testMapStringWithDottedKeyPaths() throws {
        let body = response(
            #"{"owner": {"login": "moya", "repos": [{"name": "Moya", "stars": 15000}], "admin": true}}"#)
        XCTAssertEqual(try response("plain text").mapString(), "plain text")
        XCTAssertEqual(try body.mapString(atKeyPath: "owner.login"), "moya")
        XCTAssertEqual(try body.mapString(atKeyPath: "owner.repos.0.name"), "Moya")
        XCTAssertEqual(try body.mapString(atKeyPath: "owner.repos.0.stars"), "15000")
        XCTAssertEqual(try body.mapString(atKeyPath: "owner.admin"), "true")
        XCTAssertEqual(try body.mapString(atKeyPath: "owner.repos"), #"[{"name":"Moya","stars":15000}]"#)
        XCTAssertThrowsError(try body.mapString(atKeyPath: "owner.repos.1.name")) { error in
            guard case .stringMapping? = error as? MoyaError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Response(statusCode: 200, data: Data([0xFF])).mapString())
    }

    func testMapDecodable() throws {
        let body = response(#"{"items": [{"name": "Moya", "stars": 1}], "count": 1}"#)
        XCTAssertEqual(try body.map([Repo].self, atKeyPath: "items"), [Repo(name: "Moya", stars: 1)])
        XCTAssertEqual(try body.map(Repo.self, atKeyPath: "items.0"), Repo(name: "Moya", stars: 1))
        XCTAssertEqual(try body.map(Int.self, atKeyPath: "count"), 1)
        XCTAssertEqual(try response(#"{"name": "A", "stars": 2}"#).map(Repo.self), Repo(name: "A", stars: 2))
        XCTAssertThrowsError(try body.map(Repo.self, atKeyPath: "count")) { error in
            guard case .objectMapping(_, let failed)? = error as? MoyaError else { return XCTFail("\(error)") }
            XCTAssertTrue(failed === body)
        }
        XCTAssertThrowsError(try body.map(Repo.self, atKeyPath: "missing")) { error in
            guard case .jsonMapping? = error as? MoyaError else { return XCTFail("\(error)") }
        }
        struct Optionals: Decodable, Equatable { var name: String? }
        XCTAssertEqual(try response("").map(Optionals.self, failsOnEmptyData: false), Optionals(name: nil))
    }

    func testDescriptionsAndEquality() {
        XCTAssertEqual(response("abc", status: 201).description, "Status Code: 201, Data Length: 3")
        XCTAssertEqual(response("abc"), response("abc"))
        XCTAssertNotEqual(response("abc"), response("abd"))
    }

    func testMoyaErrorMessagesAndResponses() {
        let failed = response("nope", status: 404)
        let timeout = TransportError(kind: .timedOut, message: "Operation timed out after 2001 milliseconds")
        let cases: [(MoyaError, String, Response?)] = [
            (.statusCode(failed), "Status code 404 didn't fall within the accepted range.", failed),
            (.jsonMapping(failed), "Failed to map data to JSON: the 4-byte body is not valid JSON.", failed),
            (.stringMapping(failed), "Failed to map data to a String.", failed),
            (.underlying(timeout, nil), "Operation timed out after 2001 milliseconds", nil),
            (.underlying(timeout, failed), "Operation timed out after 2001 milliseconds", failed),
            (.requestMapping("::"), "Failed to map Endpoint to a URLRequest: '::' is not a valid URL.", nil),
            (
                .parameterEncoding(ParameterEncodingError.missingURL),
                "Failed to encode parameters for URLRequest: the request has no URL to add query parameters to", nil
            )
        ]
        for (error, message, expectedResponse) in cases {
            XCTAssertEqual(error.errorDescription, message)
            XCTAssertEqual("\(error)", message)
            XCTAssertTrue(error.response === expectedResponse, message)
        }
        XCTAssertEqual(MoyaError.underlying(timeout, nil).transportError, timeout)
        XCTAssertFalse(MoyaError.underlying(timeout, nil).isCancellation)
    }
}
