import CLITestSupport
import Foundation
import TestServers
import XCTest

@testable import moya_cli

/// Issue 26, item 10: the exit status of a response that fails validation, for every status code
/// from 100 to 599, against moya-cli(1)'s EXIT STATUS written here as a table: 3, 4 and 5 for a
/// 3xx, 4xx and 5xx, 4 for any other code that fails, 0 for one that passes. Every code goes
/// through the mapping; each class boundary runs through the binary, from a sample and live
/// against the loopback server, under every kind of validation. (A 1xx is never a final answer
/// over HTTP, as libcurl reads it: 100 and 199 run from a sample only.)
final class ExitStatusTableTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    static let validations = [
        "none", "successCodes", "successAndRedirectCodes", "[100, 199, 200, 299, 300, 399, 400, 499, 500, 599]"
    ]
    static let boundaries = [100, 199, 200, 299, 300, 399, 400, 499, 500, 599]

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        let samples = Self.boundaries.map { "      c\($0): {status: \($0), text: body \($0)}" }.joined(separator: "\n")
        for (index, validation) in Self.validations.enumerated() {
            try sandbox.write(
                "targets/v\(index).yaml",
                """
                api: v\(index)
                baseURL: http://127.0.0.1:\(server.port)
                validation: \(validation)
                cases:
                  status:
                    values: [{code: int}]
                    path: /status/{code}
                    task: {parameters: {body: "body {code}"}, encoding: url}
                    samples:
                \(samples)
                """)
        }
    }

    override func tearDown() {
        server.stop()
    }

    /// moya-cli(1), EXIT STATUS.
    static func expectedStatus(_ code: Int, accepted: Bool) -> Int32 {
        guard !accepted else { return 0 }
        switch code {
        case 300...399: return 3
        case 400...499: return 4
        case 500...599: return 5
        default: return 4
        }
    }

    /// Whether validation `index` accepts `code`, by its definition.
    static func accepts(_ index: Int, _ code: Int) -> Bool {
        switch index {
        case 0: true
        case 1: (200...299).contains(code)
        case 2: (200...399).contains(code)
        default: [100, 199, 200, 299, 300, 399, 400, 499, 500, 599].contains(code)
        }
    }

    private func assertExit(_ result: CLIResult, api index: Int, code: Int, _ how: String, line: UInt = #line) {
        let accepted = Self.accepts(index, code)
        XCTAssertEqual(
            result.status, Self.expectedStatus(code, accepted: accepted), "\(how) v\(index) \(code): \(result.stderr)",
            line: line)
        XCTAssertEqual(
            result.stdout, "body \(code)", "\(how) v\(index) \(code): the body is printed either way", line: line)
        XCTAssertEqual(
            result.stderr,
            accepted ? "" : "moya-cli: error: v\(index).status: HTTP \(code) failed the case's validation\n",
            "\(how) v\(index) \(code)", line: line)
    }

    /// Every code through the mapping the binary uses (the boundaries below show it is the one used).
    func testEveryCodeMapsAsTheTableSays() {
        for code in 100...599 {
            XCTAssertEqual(
                ExitStatus.forFailedValidation(statusCode: code).rawValue, Self.expectedStatus(code, accepted: false),
                "\(code)")
        }
    }

    func testEveryBoundaryUnderEveryValidation() throws {
        for index in Self.validations.indices {
            for code in Self.boundaries {
                let stubbed = try sandbox.run([
                    "call", "v\(index)", "status", String(code), "--stub", "--sample", "c\(code)"
                ])
                assertExit(stubbed, api: index, code: code, "stub")
                guard code >= 200 else { continue }
                let live = try sandbox.run(["call", "v\(index)", "status", String(code)])
                assertExit(live, api: index, code: code, "live")
            }
        }
        XCTAssertEqual(server.receivedRequests.count, Self.validations.count * (Self.boundaries.count - 2))
    }
}
