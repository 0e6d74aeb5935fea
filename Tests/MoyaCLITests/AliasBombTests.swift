import CLITestSupport
import Foundation
import XCTest

/// A target file that stays within every size and node limit yet aliases a 1 MiB scalar 5,000
/// times: every command that reads it refuses it (exit 65) at the alias that crosses the 16 MiB
/// budget of aliased text, instead of walking or copying 5 GB (`call --stub` and `check` used to
/// abort trying to allocate it).
final class AliasBombTests: XCTestCase {
    private var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        // A scalar 64 bytes short of 1 MiB: sixteen aliases fit the budget, the seventeenth (line 27) does not.
        let big = String(repeating: "x", count: (1 << 20) - 64)
        try sandbox.write(
            "bomb.yaml",
            """
            api: bomb
            baseURL: https://bomb.example
            cases:
              one:
                path: /one
                sample: &big \(big)
              two:
                path: /two
                sample:
                  json:

            """ + String(repeating: "        - *big\n", count: 5_000))
    }

    override func tearDown() {
        sandbox = nil
    }

    private static let diagnostic = """
        bomb.yaml:27:11: error: aliases expand to more than 16 MiB of text; the file is refused (an alias bomb?)
                    - *big
                      ^

        """

    func testValidateRefusesTheFileAtTheAliasThatCrossesTheBudget() throws {
        assertRun(
            try sandbox.run(["validate", "bomb.yaml"]), status: 65, stdout: "bomb.yaml: invalid (1 error)\n",
            stderr: Self.diagnostic + "moya-cli: error: 1 error in target files\n")
    }

    func testListRefusesTheFile() throws {
        assertRun(
            try sandbox.run(["list", "--targets", "bomb.yaml"]), status: 65,
            stdout: """
                API   CASES    TRUST  FILE       DESCRIPTION
                bomb  invalid  -      bomb.yaml

                """, stderr: Self.diagnostic + "moya-cli: error: some target files are invalid (see above)\n")
        assertRun(
            try sandbox.run(["list", "bomb", "--targets", "bomb.yaml"]), status: 65, stdout: "",
            stderr: Self.diagnostic + """
                moya-cli: error: API 'bomb' is defined by bomb.yaml, which has errors; run 'moya-cli validate bomb.yaml'

                """)
    }

    func testStubbedCallAndCheckRefuseTheFileInsteadOfCrashing() throws {
        assertRun(
            try sandbox.run(["call", "bomb", "two", "--stub", "--targets", "bomb.yaml"]), status: 65, stdout: "",
            stderr: Self.diagnostic + """
                moya-cli: error: API 'bomb' is defined by bomb.yaml, which has errors; run 'moya-cli validate bomb.yaml'

                """)
        let check = try sandbox.run(["check", "bomb", "--targets", "bomb.yaml"])
        XCTAssertEqual(check.status, 65, check.stderr)
        XCTAssertTrue(check.stderr.hasPrefix(Self.diagnostic), check.stderr)
        XCTAssertTrue(check.stderr.hasSuffix("moya-cli: error: invalid target file 'bomb.yaml'\n"), check.stderr)
    }
}
