import XCTest

final class MoyaKitTestsPlaceholder: XCTestCase {
    func testPlaceholder() { XCTAssertTrue(true) }
}
