import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// `moya-cli import har`: a capture becomes target files whose cases send what was recorded and
/// answer `--stub` with what was recorded; hostile captures exit 65 with the JSON path.
final class ImportHARTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    private func importHAR(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLIRunner.run(["import", "har"] + arguments, environment: environment, currentDirectory: folder.url)
    }

    static func capture(_ entries: [String]) -> String {
        #"{"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [\#(entries.joined(separator: ",\n"))]}}"#
    }

    func testCasesSendWhatWasRecordedAndStubWhatCameBack() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try folder.write(
            "cap.har",
            Self.capture([
                #"{"request": {"method": "GET", "url": "\#(base)/anything/users?page=2&tag=a+b", "headers": [{"name": "Host", "value": "x"}, {"name": "X-Trace", "value": "t1"}, {"name": "Authorization", "value": "Bearer r3c0rded"}]}, "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{\"users\": [1, 2]}"}}}"#,
                #"{"request": {"method": "POST", "url": "\#(base)/anything/users", "headers": [{"name": "Content-Type", "value": "application/json"}], "postData": {"mimeType": "application/json", "text": "{\"name\": \"ada\"}"}}, "response": {"status": 201, "content": {"mimeType": "text/plain", "encoding": "base64", "text": "Y3JlYXRlZA=="}}}"#,
                #"{"request": {"method": "PUT", "url": "\#(base)/anything/form", "headers": [], "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "a", "value": "1 2"}]}}, "response": {"status": 204, "content": {}}}"#
            ]))
        let imported = try importHAR(["cap.har", "--api", "rec"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(
            imported.stderr,
            """
            import: wrote targets/rec.yaml: API 'rec' (\(base)), 3 cases
            import: getAnythingUsers reads Authorization from ${secret:MOYA_REC_AUTHORIZATION}; set MOYA_REC_AUTHORIZATION to call it
            import: next: moya-cli trust targets/rec.yaml (or MOYA_ALLOW_ENV=MOYA_REC_AUTHORIZATION); moya-cli list rec; moya-cli check rec

            """)
        let file = try String(contentsOf: folder.url.appendingPathComponent("targets/rec.yaml"), encoding: .utf8)
        XCTAssertFalse(file.contains("r3c0rded"), file)

        let stubbed = try CLIRunner.run(["call", "rec", "postAnythingUsers", "--stub"], currentDirectory: folder.url)
        XCTAssertEqual(stubbed.stdout, "created", "the base64 body, decoded")
        let environment = ["MOYA_REC_AUTHORIZATION": "Bearer live", CLIRunner.allowedVariablesName: "*"]
        let listed = try CLIRunner.run(
            ["call", "rec", "getAnythingUsers", "--stub"], environment: environment, currentDirectory: folder.url)
        XCTAssertEqual(listed.stdout, #"{"users":[1,2]}"#)

        for name in ["getAnythingUsers", "postAnythingUsers", "putAnythingForm"] {
            let called = try CLIRunner.run(
                ["call", "rec", name], environment: environment, currentDirectory: folder.url)
            XCTAssertEqual(called.status, 0, "\(name): \(called.stderr)")
        }
        let received = server.receivedRequests
        XCTAssertEqual(received.map(\.method), ["GET", "POST", "PUT"])
        XCTAssertEqual(received[0].path, "/anything/users")
        XCTAssertEqual(received[0].queryItems.map { "\($0.name)=\($0.value)" }, ["page=2", "tag=a b"])
        XCTAssertEqual(received[0].value(of: "X-Trace"), "t1")
        XCTAssertEqual(received[0].value(of: "Authorization"), "Bearer live")
        XCTAssertEqual(received[0].value(of: "Host"), "127.0.0.1:\(server.port)", "the recorded Host is not sent")
        XCTAssertEqual(String(decoding: received[1].body, as: UTF8.self), #"{"name": "ada"}"#)
        XCTAssertEqual(received[1].value(of: "Content-Type"), "application/json")
        XCTAssertEqual(String(decoding: received[2].body, as: UTF8.self), "a=1+2")
        XCTAssertEqual(received[2].value(of: "Content-Type"), "application/x-www-form-urlencoded")
    }

    func testHostileCapturesExit65WithThePlace() throws {
        let big = folder.url.appendingPathComponent("big.har")
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let tooBig = try importHAR(["big.har"])
        XCTAssertEqual(tooBig.status, 65)
        XCTAssertEqual(
            tooBig.stderr,
            "moya-cli: error: big.har is 104857600 bytes, larger than 64 MiB, the most HAR captures read\n")

        let entry = { (header: String, text: String) in
            #"{"request": {"method": "GET", "url": "https://h/a", "headers": [{"name": "\#(header)", "value": "1"}]}, "response": {"status": 200, "content": {"encoding": "base64", "text": "\#(text)"}}}"#
        }
        for (capture, expected) in [
            (
                Self.capture([entry("X", "%%%")]),
                "cap.har: the response body is not base64, as its encoding says (at $.log.entries[0].response.content.text)"
            ),
            (
                Self.capture([entry(#"X\u001b[31m"#, "")]),
                "cap.har: the header name 'X\\e[31m' is not a header name (at $.log.entries[0].request.headers[0].name)"
            ),
            ("{\"log\": [", "cap.har:1:")
        ] {
            try folder.write("cap.har", capture)
            let result = try importHAR(["cap.har"])
            XCTAssertEqual(result.status, 65, capture)
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: " + expected), result.stderr)
            XCTAssertFalse(result.stderr.contains("\u{1B}"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("targets").path))
        }

        try folder.write(
            "two.har",
            Self.capture([entry("X", ""), entry("X", "").replacingOccurrences(of: "https://h/", with: "https://g/")]))
        let twoHosts = try importHAR(["two.har", "-o", "one.yaml"])
        XCTAssertEqual(twoHosts.status, 65)
        XCTAssertTrue(twoHosts.stderr.contains("-o names one file, and the capture has 2 hosts"), twoHosts.stderr)
        XCTAssertEqual(try importHAR(["two.har", "--only", "g"]).status, 0)
        let again = try importHAR(["two.har"])
        XCTAssertEqual(again.status, 64, "targets/g.yaml exists")
        XCTAssertEqual(again.stderr, "moya-cli: error: targets/g.yaml exists; give --force to replace it\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("targets/h.yaml").path))
        XCTAssertEqual(try importHAR(["two.har", "--force"]).status, 0)
    }
}
