import Assertions
import OrderedJSON
import XCTest

/// RFC 9535's slice examples and `count` of a singular path, in XCTest so `make mutants` (which
/// filters XCTest names) can name them; the whole suite is JSONQueryTests and ExpectationTests.
final class SliceAndCountTests: XCTestCase {
    let letters: JSONValue = ["a", "b", "c", "d", "e", "f", "g"]

    func select(_ query: String, in document: JSONValue) throws -> JSONValue {
        .array(try JSONQuery(parsing: query).select(in: document))
    }

    func testSlicesWithNegativeStepsStopBeforeTheirEnd() throws {
        XCTAssertEqual(try select("$[5:1:-2]", in: letters), ["f", "d"])
        XCTAssertEqual(try select("$[::-1]", in: ["a", "b", "c"]), ["c", "b", "a"])
        XCTAssertEqual(try select("$[3:0:-1]", in: letters), ["d", "c", "b"])
        XCTAssertEqual(try select("$[1:5:2]", in: letters), ["b", "d"])
    }

    func testCountOfASingularPathIsTheLengthOfWhatItNames() throws {
        let expectation = Expectation(
            body: [BodyAssertion(query: try JSONQuery(parsing: "$.items"), predicates: [.count([.equal(2)])])])
        let passing = ResponseFacts(status: 200, headers: [], body: .json(["items": [1, 2]]))
        XCTAssertEqual(expectation.failures(for: passing), [])
        let failing = ResponseFacts(status: 200, headers: [], body: .json(["items": [1, 2, 3]]))
        XCTAssertEqual(
            expectation.failures(for: failing).map(\.description), ["$.items: expected a count 2, found a count of 3"])
    }
}
