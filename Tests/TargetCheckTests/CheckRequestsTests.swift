import Foundation
import TargetCheck
import TargetSpec
import TestServers
import XCTest

/// Issue 42: a live run without reports does not make or keep each check's request (only the
/// reports show it). Its verdicts must be those of a run that keeps them, and a run that keeps
/// them (the default, and `check --report`) has each one, secrets redacted.
final class CheckRequestsTests: XCTestCase {
    private var server: HTTPTestServer!
    private var downloads: String!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        downloads = NSTemporaryDirectory() + "check-requests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: downloads)
    }

    private var yaml: String {
        """
        api: local
        baseURL: http://127.0.0.1:\(server.port)
        validation: successCodes
        cases:
          fine:
            path: /json
            sample: {json: {slideshow: {author: Someone}}}
          drifting:
            path: /json
            sample: {json: {slideshow: {author: 1}}}
          missing:
            path: /status/404
            sample: {json: {found: true}}
          echo:
            values: [{name: string}]
            path: /anything/{name}
            task: {parameters: {token: "{name}"}, encoding: url}
            sample: {json: {method: GET}}
            examples: [[one]]
          post:
            method: POST
            path: /anything/post
            sample: ok
        """
    }

    private func run(keepingRequests: Bool) throws -> [CheckResult] {
        let loaded = TargetFileLoader.load(text: yaml, file: "local.yaml")
        let api = try XCTUnwrap(loaded.api, loaded.diagnostics.map(\.message).joined(separator: "\n"))
        var configuration = CheckConfiguration(isLive: true, jobs: 4, downloadsFolder: downloads)
        configuration.keepsRequests = keepingRequests
        let runner = CheckRunner(items: try CheckPlan(apis: [api]).items, configuration: configuration)
        return try XCTUnwrap(runner.run { _, _ in })
    }

    func testARunWithoutReportsJudgesAsOneThatKeepsTheRequests() throws {
        let kept = try run(keepingRequests: true)
        let dropped = try run(keepingRequests: false)
        XCTAssertEqual(kept.map(\.outcome), [.passed, .failed, .failed, .passed, .skipped])
        XCTAssertEqual(dropped.map(\.outcome), kept.map(\.outcome))
        XCTAssertEqual(dropped.map(\.failureKind), kept.map(\.failureKind))
        XCTAssertEqual(dropped.map(\.statusCode), kept.map(\.statusCode))
        XCTAssertEqual(dropped.map(\.reasons), kept.map(\.reasons))
        XCTAssertEqual(dropped.map(\.drifts), kept.map(\.drifts))

        let base = "http://127.0.0.1:\(server.port)"
        XCTAssertEqual(kept.map { $0.request?.method }, ["GET", "GET", "GET", "GET", "POST"])
        XCTAssertEqual(
            kept.map { $0.request?.url },
            [
                "\(base)/json", "\(base)/json", "\(base)/status/404", "\(base)/anything/one?token=one",
                "\(base)/anything/post"
            ])
        XCTAssertTrue(dropped.allSatisfy { $0.request == nil })
    }
}
