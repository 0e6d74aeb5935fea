import CurlTransport
import Foundation
import HTTPTypes
import XCTest

/// Issue 16: `allHTTPHeaderFields` makes its fields at once when no name is given twice; the
/// result must be what setting them one by one, in name order, gives.
final class HeaderFieldsSetterTests: XCTestCase {
    private func oneByOne(_ headers: [String: String]?) -> HTTPFields {
        var request = URLRequest(url: URL(string: "https://a.example")!)
        for (name, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request.headers
    }

    func testTheFieldsAreTheOnesSetOneByOne() {
        let cases: [[String: String]?] = [
            nil,
            [:],
            ["Accept": "application/json"],
            ["Accept": "application/json", "X-Trace": "1", "authorization": "Bearer t", "Content-Type": "text/plain"],
            // One name spelled twice: the later in name order wins.
            ["Accept": "text/html", "accept": "application/json", "X-A": "1"],
            ["X-Dup": "a", "x-dup": "b", "X-DUP": "c"],
            // Names HTTPField.Name refuses are left out.
            ["Bad Name": "x", "Good": "y", "": "z"],
            ["Empty": "", "Spaces": "  padded  "]
        ]
        for headers in cases {
            var request = URLRequest(url: URL(string: "https://a.example")!)
            request.setValue("stale", forHTTPHeaderField: "X-Before")
            request.allHTTPHeaderFields = headers
            let expected = oneByOne(headers)
            XCTAssertEqual(Array(request.headers), Array(expected), "\(String(describing: headers))")
            XCTAssertEqual(
                request.allHTTPHeaderFields,
                headers.map { _ in expected }.map { fields in
                    Dictionary(fields.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { $0 + ", " + $1 })
                } ?? [:], "\(String(describing: headers))")
        }
    }
}
