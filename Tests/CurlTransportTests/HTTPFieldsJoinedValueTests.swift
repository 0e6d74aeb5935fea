import CurlTransport
import HTTPTypes
import XCTest

/// Issue 42: `HTTPFields.joinedValue(for:)` is HTTPTypes' `headers[name]` without its generic join
/// (a conformance lookup over the whole static binary at its first use): the same value for none,
/// one and several fields of a name, and Cookie's own separator.
final class HTTPFieldsJoinedValueTests: XCTestCase {
    func testTheSameValueAsTheSubscript() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .contentType, value: "application/json"))
        fields.append(HTTPField(name: .accept, value: "text/html"))
        fields.append(HTTPField(name: .accept, value: "application/json;q=0.9"))
        fields.append(HTTPField(name: HTTPField.Name("X-Empty")!, value: ""))
        fields.append(HTTPField(name: HTTPField.Name("X-Empty")!, value: "b"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        let names: [HTTPField.Name] = [
            .contentType, .accept, HTTPField.Name("ACCEPT")!, HTTPField.Name("X-Empty")!, .cookie, .lastModified
        ]
        for name in names {
            XCTAssertEqual(fields.joinedValue(for: name), fields[name], "\(name)")
        }
        XCTAssertEqual(fields.joinedValue(for: .accept), "text/html, application/json;q=0.9")
        XCTAssertEqual(fields.joinedValue(for: .cookie), "a=1; b=2")
        XCTAssertEqual(fields.joinedValue(for: HTTPField.Name("X-Empty")!), ", b")
        XCTAssertNil(fields.joinedValue(for: .lastModified))
    }
}
