import RequestImport
import TargetModel
import TargetSpec
import XCTest

/// HAR 1.2 captures into APIs: grouping, names, samples, and hostile captures refused with the
/// JSON path.
final class HARImporterTests: XCTestCase {
    private func capture(_ entries: [String]) -> [UInt8] {
        Array(#"{"log": {"version": "1.2", "entries": [\#(entries.joined(separator: ","))]}}"#.utf8)
    }

    private func entry(
        _ method: String, _ url: String, headers: String = "[]", postData: String = "null",
        response: String = #"{"status": 200, "content": {"mimeType": "text/plain", "text": "ok"}}"#
    ) -> String {
        #"{"request": {"method": "\#(method)", "url": "\#(url)", "headers": \#(headers), "postData": \#(postData)}, "response": \#(response)}"#
    }

    func testRequestsGroupedByOriginEachMethodAndPathOnce() throws {
        let apis = try HARImporter.read(
            capture([
                entry("GET", "https://api.example.com/v1/users?page=1"),
                entry("GET", "https://api.example.com/v1/users?page=2"),
                entry(
                    "post", "https://api.example.com/v1/users",
                    postData:
                        #"{"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "a b", "value": "c&d"}]}"#
                ),
                entry("GET", "https://api.example.com/v1/users-"),
                entry("GET", "http://127.0.0.1:8080/")
            ]), apiName: nil, only: [])
        XCTAssertEqual(apis.map(\.name), ["api-example-com", "api-127-0-0-1-8080"])
        XCTAssertEqual(apis[0].requests.map(\.name), ["getV1Users", "postV1Users", "getV1Users2"])
        XCTAssertEqual(apis[0].repeatedCount, 1)
        XCTAssertEqual(apis[1].requests.map(\.name), ["getRoot"])
        guard case .bytes(let body) = apis[0].requests[1].request.body else { return XCTFail("no body") }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "a+b=c%26d")
        XCTAssertEqual(apis[0].requests[1].request.headers.map(\.value), ["application/x-www-form-urlencoded"])
        let only = try HARImporter.read(
            capture([entry("GET", "https://a.example/x"), entry("GET", "https://b.example/y")]), apiName: "b",
            only: ["B.example"])
        XCTAssertEqual(only.map(\.name), ["b"])
    }

    func testResponsesBecomeSamplesBase64Decoded() throws {
        let apis = try HARImporter.read(
            capture([
                entry(
                    "GET", "https://h/a",
                    headers:
                        #"[{"name": ":authority", "value": "h"}, {"name": "Host", "value": "h"}, {"name": "X-A", "value": "1"}]"#,
                    response:
                        #"{"status": 404, "content": {"mimeType": "application/json", "encoding": "base64", "text": "eyJvayI6ZmFsc2V9"}}"#
                )
            ]), apiName: nil, only: [])
        let request = try XCTUnwrap(apis.first?.requests.first?.request)
        XCTAssertEqual(request.headers.map(\.name), ["X-A"], "pseudo-headers and Host left out")
        XCTAssertEqual(request.sample, NewCase.Sample(status: 200), "the default sample is a success")
        XCTAssertEqual(
            request.otherSamples,
            [NewCase.Sample(status: 404, contentType: "application/json", body: Array(#"{"ok":false}"#.utf8))])
    }

    func testATargetFileOverTheLoadersLimitsIsRefused() throws {
        XCTAssertNoThrow(try TargetFileBudget.check("api: a", cases: 100_000, advice: ""))
        XCTAssertThrowsError(try TargetFileBudget.check("api: a", cases: 100_001, advice: "fewer")) { error in
            XCTAssertEqual(
                (error as? RequestImportError)?.message,
                "the target file would be 6 bytes with 100001 cases, over the 16 MiB and 100000 cases a target file may have; nothing was written: fewer"
            )
        }
        XCTAssertThrowsError(
            try TargetFileBudget.check(String(repeating: "#", count: (16 << 20) + 1), cases: 1, advice: ""))
    }

    func testHostileCapturesAreRefusedWithTheirPlace() {
        let tooMany =
            Array(#"{"log": {"entries": ["#.utf8)
            + Array(repeating: "{},", count: HARImporter.maximumEntries).joined().utf8 + Array("{}]}}".utf8)
        for (bytes, fragment) in [
            (Array("{\"log\": ".utf8), "not JSON"),
            (Array(#"{"log": {}}"#.utf8), "no log.entries array"),
            (tooMany, "at most 100000 are read"),
            (capture([#"{"request": {}}"#]), "not a string (at $.log.entries[0].request.method)"),
            (capture([entry("G ET", "https://h/")]), "not an HTTP method (at $.log.entries[0].request.method)"),
            (
                capture([entry("GET", "ftp://h/")]),
                "not http or https; a case sends HTTP requests (at $.log.entries[0].request.url)"
            ),
            (
                capture([entry("GET", "https://h/", headers: #"[{"name": "X Y:", "value": "1"}]"#)]),
                "at $.log.entries[0].request.headers[0].name"
            ),
            (
                capture([entry("GET", "https://h/", headers: #"[{"name": "X", "value": "a\r\nB: c"}]"#)]),
                "CR, LF or NUL (at $.log.entries[0].request.headers[0].value)"
            ),
            (
                capture([
                    entry(
                        "GET", "https://h/",
                        response: #"{"status": 200, "content": {"encoding": "base64", "text": "%%%not base64"}}"#)
                ]), "not base64"
            ),
            (capture([]), "no requests")
        ] as [([UInt8], String)] {
            XCTAssertThrowsError(try HARImporter.read(bytes, apiName: nil, only: []), fragment) { error in
                let message = (error as? RequestImportError)?.description ?? "\(error)"
                XCTAssertTrue(message.contains(fragment), "\(fragment): \(message)")
            }
        }
    }
}
