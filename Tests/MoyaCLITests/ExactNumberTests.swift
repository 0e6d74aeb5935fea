import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 11, item 7, "exact numbers": JSON numbers are printed as the server wrote them, numbers
/// on the command line are decimal only, and doubles are sent as the user wrote them.
final class ExactNumberTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/numbers.yaml",
            """
            api: numbers
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            timeout: 10
            cases:
              served:
                values: [{body: string}]
                path: /status/200
                task: {parameters: {body: "{body}"}, encoding: url}
                sample: ok
              ratio:
                method: POST
                values: [{r: double}]
                path: /anything/ratio/{r}
                task: {json: {r: "{r}", label: "r={r}"}, query: {r: "{r}"}}
                sample: ok
              ratioForm:
                method: POST
                values: [{r: double}]
                path: /post
                task: {parameters: {r: "{r}"}, encoding: url}
                sample: ok
              written:
                method: POST
                values: [{r: {type: double, default: 2.50}}]
                path: /anything/written
                task: {json: {r: "{r}", fixed: 1.50, big: 1E2}}
                sample: {json: {price: 2.50, id: 12345678901234567890.0}}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func call(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(["call"] + arguments, currentDirectory: folder.url)
    }

    func lastRequest() throws -> ReceivedRequest {
        try XCTUnwrap(server.receivedRequests.last)
    }

    // MARK: JSON read and printed

    func testKeyPathPrintsAnIntegerBeyondInt64AsServed() throws {
        let result = try call(["numbers", "served", #"{"id":12345678901234567890}"#, "--keypath", "id"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "12345678901234567890\n")
    }

    func testFormatJSONKeepsNumbersAsServed() throws {
        let body = #"{"a":-0,"b":1E2,"c":[0.10,1e-7,1.0,-12345678901234567890123]}"#
        let result = try call(["numbers", "served", body, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#","body":\#(body),"bodyBase64":null,"#), result.stdout)

        let keyPath = try call(["numbers", "served", body, "--keypath", "c"])
        XCTAssertEqual(keyPath.stdout, "[0.10,1e-7,1.0,-12345678901234567890123]\n")
    }

    func testSampleNumbersAreAnsweredAsWritten() throws {
        let result = try call(["numbers", "written", "--stub", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""body":{"price":2.50,"id":12345678901234567890.0}"#), result.stdout)
    }

    // MARK: Command-line numbers are decimal

    func testHexadecimalDoubleValuesAreUsageErrors() throws {
        for text in ["0x1p3", "0x10", "inf", "nan"] {
            let result = try call(["numbers", "ratio", text])
            XCTAssertEqual(result.status, 64, "\(text): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("'\(text)' is not a double"), result.stderr)
            XCTAssertTrue(result.stderr.contains("for value 'r'"), result.stderr)
        }
        let named = try call(["numbers", "ratio", "--r", "0x1p3"])
        XCTAssertEqual(named.status, 64, named.stderr)
        XCTAssertTrue(
            named.stderr.contains("'0x1p3' is not a double (a finite decimal number such as 2.5 or 1e3) for value 'r'"),
            named.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testNumberOptionsAreDecimalOnly() throws {
        let start = Date()
        let delay = try call(["numbers", "ratio", "1", "--stub", "--delay", "0x10"])
        XCTAssertEqual(delay.status, 64, delay.stderr)
        XCTAssertTrue(delay.stderr.contains("'0x10' is invalid for '--delay <seconds>'"), delay.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "refused, not waited for")

        for (option, value) in [
            ("--delay", "0x1p-2"), ("--timeout", "0x1p3"), ("--connect-timeout", "inf"), ("--timeout", "nan")
        ] {
            var arguments = ["numbers", "ratio", "1", option, value]
            if option == "--delay" { arguments.append("--stub") }
            let result = try call(arguments)
            XCTAssertEqual(result.status, 64, "\(option) \(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("'\(value)' is invalid for '\(option) <seconds>'"), result.stderr)
        }
        let rate = try CLIRunner.run(["check", "numbers", "--live", "--rate", "0x10"], currentDirectory: folder.url)
        XCTAssertEqual(rate.status, 64, rate.stderr)
        XCTAssertTrue(rate.stderr.contains("'0x10' is invalid for '--rate <n>'"), rate.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)

        let decimal = try call(["numbers", "ratio", "1", "--stub", "--delay", "0.05", "--timeout", "1e1"])
        XCTAssertEqual(decimal.status, 0, decimal.stderr)
    }

    // MARK: Doubles sent as written

    func testDoublesAreSentAsWrittenInPathQueryAndJSON() throws {
        for (written, sent) in [("1", "1"), ("2.50", "2.50"), ("-0", "-0"), ("1E2", "1E2"), ("+.5", "0.5")] {
            // -0 is also curl's --http1.0, as -4 is its --ipv4: a value that starts with '-' follows '--'.
            let result = try call(["numbers", "ratio"] + (written.hasPrefix("-") ? ["--", written] : [written]))
            XCTAssertEqual(result.status, 0, "\(written): \(result.stderr)")
            let request = try lastRequest()
            XCTAssertEqual(request.target, "/anything/ratio/\(sent)?r=\(sent)")
            XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"r":\#(sent),"label":"r=\#(sent)"}"#)
        }
    }

    func testDoublesAreSentAsWrittenInFormBodies() throws {
        for (written, sent) in [("1", "1"), ("2.50", "2.50")] {
            let result = try call(["numbers", "ratioForm", written])
            XCTAssertEqual(result.status, 0, "\(written): \(result.stderr)")
            XCTAssertEqual(String(decoding: try lastRequest().body, as: UTF8.self), "r=\(sent)")
        }
    }

    func testTargetFileNumbersAreSentAsWritten() throws {
        let result = try call(["numbers", "written"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(String(decoding: try lastRequest().body, as: UTF8.self), #"{"r":2.50,"fixed":1.50,"big":1E2}"#)
    }
}

/// Issue 26, item 5: numbers in a target file's JSON are sent and answered as written, whatever
/// their size; YAML's other spellings are strings.
final class ExactLargeNumberTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/big.yaml",
            """
            api: big
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              order:
                method: POST
                path: /anything/order
                task:
                  json: {orderId: 12345678901234567890, delta: -0, huge: 1e400, past: 9223372036854775808, low: -9223372036854775809,
                         plain: 42, hex: 0x1F, octal: 0o17, under: 1_000, half: .5, plus: +1, lead: 007, dot: 5., inf: .inf, quoted: "12",
                         tagged: !!int 12345678901234567890, list: [18446744073709551616, -0.0]}
                  query: {id: 12345678901234567890}
                sample: {json: {orderId: 12345678901234567890, delta: -0, huge: 1e400, list: [2.50, 1E2]}}
              form:
                method: POST
                path: /anything/form
                task: {parameters: {id: 12345678901234567890, zero: -0}, encoding: url}
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    static let sentJSON =
        #"{"orderId":12345678901234567890,"delta":-0,"huge":1e400,"past":9223372036854775808,"low":-9223372036854775809,"#
        + #""plain":42,"hex":"0x1F","octal":"0o17","under":"1_000","half":0.5,"plus":1,"lead":7,"dot":5,"inf":".inf","quoted":"12","#
        + #""tagged":12345678901234567890,"list":[18446744073709551616,-0.0]}"#

    func testJSONBodiesQueriesAndFormsCarryNumbersAsWritten() throws {
        let result = try CLIRunner.run(["call", "big", "order"], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), Self.sentJSON)
        XCTAssertEqual(request.target, "/anything/order?id=12345678901234567890")

        let form = try CLIRunner.run(["call", "big", "form"], currentDirectory: folder.url)
        XCTAssertEqual(form.status, 0, form.stderr)
        XCTAssertEqual(
            String(decoding: try XCTUnwrap(server.receivedRequests.last).body, as: UTF8.self),
            "id=12345678901234567890&zero=-0")
    }

    func testTheCurlCommandAndTheStubCarryTheSameText() throws {
        let curl = try CLIRunner.run(["curl", "big", "order"], currentDirectory: folder.url)
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(curl.stdout.contains("--data-binary '\(Self.sentJSON)'"), curl.stdout)
        let stubbed = try CLIRunner.run(["call", "big", "order", "--stub"], currentDirectory: folder.url)
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, #"{"orderId":12345678901234567890,"delta":-0,"huge":1e400,"list":[2.50,1E2]}"#)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }
}
