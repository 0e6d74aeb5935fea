import Foundation
import TestSupport
import XCTest

/// Issue 11, item 5 (part): a header value or a multipart part's name, file name or MIME type
/// with CR, LF or NUL is refused before anything is sent, from the file or the command line.
final class LineInjectionTests: XCTestCase {
    func testLineBreaksInHeaderLikeFieldsAreRefusedBeforeSending() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("targets/part.txt", "contents")
        try folder.write("targets/api.yaml", """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              mime:
                method: POST
                path: /post
                task:
                  multipart:
                    - {name: doc, file: part.txt, mimeType: "text/plain\\r\\nX-Injected: 1"}
                sample: ok
              partName:
                method: POST
                path: /post
                task:
                  multipart:
                    - {name: "a\\nb", value: x}
                sample: ok
              tagged:
                values: [{tag: string}]
                path: /get
                headers: {X-Tag: "{tag}"}
                sample: ok
            """)
        let cases: [([String], String)] = [
            (["mime"], "the mimeType of multipart part 'doc'"),
            (["partName"], "the name of multipart part 'a\nb'"),
            (["tagged", "ok\r\nX-Injected: 1"], "header 'X-Tag'"),
        ]
        for (words, field) in cases {
            for extra in [[], ["--stub"]] {
                let result = try CLIRunner.run(["call", "api"] + words + extra, environment: ["HOME": folder.url.path],
                                               currentDirectory: folder.url)
                XCTAssertEqual(result.status, 64, "\(words): \(result.stderr)")
                XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: \(field) holds a line break or NUL character"), result.stderr)
            }
        }
        XCTAssertTrue(server.receivedRequests.isEmpty, "nothing was sent")
        let fine = try CLIRunner.run(["call", "api", "tagged", "plain"], environment: ["HOME": folder.url.path],
                                     currentDirectory: folder.url)
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertEqual(server.receivedRequests.last?.values(of: "X-Tag"), ["plain"])
    }
}
