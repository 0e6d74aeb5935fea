import XCTest

@testable import moya_cli

/// Issue 16: `MoyaCommand.commandNames` is spelled out (deriving it cost every run, a live call
/// included, some 9 million instructions of conformance lookups); it must stay the list
/// ArgumentParser derives from the subcommands, in the same order.
final class MoyaCommandTests: XCTestCase {
    func testSpelledOutCommandNamesAreTheDerivedOnes() {
        XCTAssertEqual(MoyaCommand.commandNames, MoyaCommand.derivedCommandNames)
    }
}
