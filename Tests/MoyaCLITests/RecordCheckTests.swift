import Foundation
import TestServers
import XCTest

/// `check --live --record` through the binary: every case checked live gets its response as its
/// sample in one write per file; a failing one only with `--record-failures`.
final class RecordCheckTests: WebTargetTestCase {
    private var original = ""

    override func webTarget(port: UInt16) -> String {
        original = """
            api: shop
            baseURL: http://127.0.0.1:\(port)
            cases:
              same:   # the server answers what the sample says
                path: /reply
                task: {parameters: {body: '{{"count":1}}', type: application/json}, encoding: url}
                sample: {status: 200, json: {count: 1}}
              drifted:
                path: /reply
                task: {parameters: {body: '{{"id":"x","tags":[1]}}', type: application/json}, encoding: url}
                sample:
                  json: {id: 1}   # the live id is a string now
              gone:
                path: /reply
                task: {parameters: {status: 404, body: nope, type: text/plain}, encoding: url}
                sample: {text: here}

            """
        return original
    }

    private var path: String { folder.url.path + "/targets/web.yaml" }
    private func fileText() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testRecordsEveryPassingCaseInOneWriteAndFailuresOnlyWhenAsked() throws {
        let before = try run(["check", "shop", "--live"])
        XCTAssertEqual(before.status, 8, before.stderr)

        let recorded = try run(["check", "shop", "--live", "--record"])
        XCTAssertEqual(recorded.status, 8, "the run's own checks still failed: \(recorded.stderr)")
        XCTAssertTrue(
            recorded.stderr.contains("moya-cli: recorded 2 samples in targets/web.yaml (same, drifted)\n"),
            recorded.stderr)
        let refreshed = original.replacingOccurrences(
            of: "      json: {id: 1}   # the live id",
            with: "      status: 200\n      json: {id: x, tags: [1]}   # the live id")
        XCTAssertEqual(try fileText(), refreshed, "only the drifted sample changed")
        XCTAssertEqual(try run(["check", "shop"]).status, 0, "the file loads and its samples pass offline")

        let after = try run(["check", "shop", "--live"])
        XCTAssertEqual(after.status, 8)
        XCTAssertTrue(after.stdout.contains("1 failed") || after.stderr.contains("1 of 3 checks failed"), after.stderr)

        let again = try run(["check", "shop", "--live", "--record"])
        XCTAssertTrue(
            again.stderr.contains(
                "moya-cli: targets/web.yaml already holds the 2 samples recorded (same, drifted); nothing was written\n"
            ),
            again.stderr)
        XCTAssertEqual(try fileText(), refreshed, "a second record is a no-op")

        let failures = try run(["check", "shop", "--live", "--record", "--record-failures"])
        XCTAssertTrue(
            failures.stderr.contains("moya-cli: recorded 3 samples in targets/web.yaml (same, drifted, gone)\n"),
            failures.stderr)
        XCTAssertEqual(
            try fileText(),
            refreshed.replacingOccurrences(
                of: "sample: {text: here}",
                with: "sample: {status: 404, headers: {Content-Type: text/plain}, text: nope}"))
    }

    func testRecordNeedsLive() throws {
        let offline = try run(["check", "shop", "--record"])
        XCTAssertEqual(offline.status, 64)
        XCTAssertTrue(offline.stderr.contains("check --record records live responses; add --live"), offline.stderr)
        XCTAssertEqual(try fileText(), original)
    }
}
