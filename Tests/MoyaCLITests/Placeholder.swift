import XCTest

final class MoyaCLITestsPlaceholder: XCTestCase {
    func testPlaceholder() { XCTAssertTrue(true) }
}
