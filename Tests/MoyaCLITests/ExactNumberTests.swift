import Foundation
import TestSupport
import XCTest

/// Issue 11, item 7, "exact numbers": JSON numbers are printed as the server wrote them, numbers
/// on the command line are decimal only, and doubles are sent as the user wrote them.
final class ExactNumberTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/numbers.yaml", """
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
        XCTAssertTrue(named.stderr.contains("'0x1p3' is not a double (a finite decimal number such as 2.5 or 1e3) for value 'r'"),
                      named.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testNumberOptionsAreDecimalOnly() throws {
        let start = Date()
        let delay = try call(["numbers", "ratio", "1", "--stub", "--delay", "0x10"])
        XCTAssertEqual(delay.status, 64, delay.stderr)
        XCTAssertTrue(delay.stderr.contains("'0x10' is invalid for '--delay <seconds>'"), delay.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "refused, not waited for")

        for (option, value) in [("--delay", "0x1p-2"), ("--timeout", "0x1p3"), ("--connect-timeout", "inf"), ("--timeout", "nan")] {
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
            let result = try call(["numbers", "ratio", written])
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
