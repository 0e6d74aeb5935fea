import ArgumentParser
import CLITestSupport
import XCTest

@testable import moya_cli

/// Issue 16: `MoyaCommand.commandNames` is spelled out (deriving it cost every run, a live call
/// included, some 9 million instructions of conformance lookups); it must stay the list
/// ArgumentParser derives from the subcommands, in the same order.
final class MoyaCommandTests: XCTestCase {
    func testSpelledOutCommandNamesAreTheDerivedOnes() {
        XCTAssertEqual(MoyaCommand.commandNames, MoyaCommand.derivedCommandNames)
    }

    /// Issue 42: `--version` alone is answered before ArgumentParser builds its command tree; the
    /// binary prints what ArgumentParser would, with its exit status. With anything else on the
    /// line it is ArgumentParser's, as before.
    func testVersionIsWhatArgumentParserPrints() throws {
        var expected = ""
        do {
            _ = try MoyaCommand.parseAsRoot(["--version"])
            XCTFail("ArgumentParser parsed --version as a command")
        } catch {
            XCTAssertEqual(MoyaCommand.exitCode(for: error), .success)
            expected = MoyaCommand.fullMessage(for: error) + "\n"
        }
        XCTAssertEqual(expected, MoyaCommand.version + "\n")
        let run = try CLIRunner.run(["--version"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, expected)
        XCTAssertEqual(run.stderr, "")
        // Not alone: ArgumentParser's answer, the same (it looks for --version first).
        let extra = try CLIRunner.run(["--version", "--bogus"])
        XCTAssertEqual(extra.status, 0, extra.stderr)
        XCTAssertEqual(extra.stdout, expected)
    }
}
