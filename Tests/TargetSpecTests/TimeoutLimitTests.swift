import MoyaKit
import TargetModel
import XCTest

/// The validator's longest timeout is written again in the model, which does not import the
/// transport: the two must stay one number.
final class TimeoutLimitTests: XCTestCase {
    func testTheValidatorsLongestTimeoutIsTheTransports() {
        XCTAssertEqual(TargetFileValidator.maximumInterval, SessionConfiguration.maximumInterval)
    }
}
