import XCTest

final class TargetSpecTestsPlaceholder: XCTestCase {
    func testPlaceholder() { XCTAssertTrue(true) }
}
