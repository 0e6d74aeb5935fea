import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `request --save-as CASE [--save-sample]` through the binary: the request, once it succeeded,
/// appended to the API's target file byte for byte, and called again as a case.
final class RequestSaveAsTests: WebTargetTestCase {
    private var original = ""

    override func webTarget(port: UInt16) -> String {
        original = """
            # web API, by hand
            api: web
            baseURL: http://127.0.0.1:\(port)   # loopback
            headers: &common {X-From-File: file}
            cases:
              zen: {path: /zen, sample: ok}   # a flow map
              user:
                values: [{id: int}]
                path: "/users/{id}"
                headers: *common
                sample: ok
            # after the last case

            validation: successCodes

            """
        return original
    }

    override var extraEnvironment: [String: String] { ["MOYA_WEB_X_API_KEY": "from-env"] }

    private var path: String { folder.url.path + "/targets/web.yaml" }
    private func fileText() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testSavesTheRequestThatWorkedAndCallsItAgain() throws {
        let result = try run([
            "request", "web", "POST", "/anything/items/{1}", "name=Ann", "age:=42", "q==x", "X-Extra:two words",
            "X-Api-Key:s3cret", "--save-as", "createItem", "--save-sample"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stderr,
            """
            moya-cli: saved case 'createItem' in targets/web.yaml (line 12)
            moya-cli: the case reads X-Api-Key from ${secret:MOYA_WEB_X_API_KEY}; set MOYA_WEB_X_API_KEY to call it
            moya-cli: next: moya-cli trust targets/web.yaml (or MOYA_ALLOW_ENV=MOYA_WEB_X_API_KEY), as the file is not trusted

            """)
        let text = try fileText()
        XCTAssertFalse(text.contains("s3cret"), "a secret is never written")
        let head = original.components(separatedBy: "# after the last case")[0]
        XCTAssertTrue(text.hasPrefix(head), text)
        XCTAssertTrue(text.hasSuffix("# after the last case\n\nvalidation: successCodes\n"), text)
        let added = String(
            text.dropFirst(head.count).dropLast("# after the last case\n\nvalidation: successCodes\n".count))
        XCTAssertTrue(
            added.hasPrefix(
                """
                  createItem:
                    method: POST
                    path: "/anything/items/%7B1%7D"
                    headers: {X-Extra: two words, X-Api-Key: "${secret:MOYA_WEB_X_API_KEY}"}
                    task: {json: {name: Ann, age: 42}, query: {q: x}}
                    sample:
                      headers: {Content-Type: application/json}
                      json:
                        method: POST

                """), added)
        XCTAssertTrue(
            added.contains("- [X-Api-Key, \"<redacted>\"]\n"), "the echoed secret is redacted in the sample: \(added)")
        let sent = try XCTUnwrap(server.receivedRequests.last)

        let again = try run(["call", "web", "createItem"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let resent = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(resent.method, sent.method)
        XCTAssertEqual(resent.target, sent.target)
        XCTAssertEqual(resent.body, sent.body)
        XCTAssertEqual(resent.value(of: "X-Extra"), "two words")
        XCTAssertEqual(resent.value(of: "X-Api-Key"), "from-env")

        let stub = try run(["call", "web", "createItem", "--stub"])
        XCTAssertEqual(stub.status, 0, stub.stderr)
        XCTAssertEqual(
            try JSONSerialization.jsonObject(with: stub.stdoutData) as? NSDictionary,
            try JSONSerialization.jsonObject(
                with: Data(result.stdout.replacingOccurrences(of: "s3cret", with: "<redacted>").utf8)) as? NSDictionary,
            "the sample is the response, its secret redacted")
        XCTAssertEqual(try run(["validate", "targets/web.yaml"]).status, 0)
    }

    func testRefusedBeforeAnythingIsSent() throws {
        let taken = try run(["request", "web", "GET", "/x", "--save-as", "zen"])
        XCTAssertEqual(taken.status, 64)
        XCTAssertEqual(
            taken.stderr,
            "moya-cli: error: case 'zen' exists in targets/web.yaml (line 6); pick another name or remove it first\n")
        let invalid = try run(["request", "web", "GET", "/x", "--save-as", "1st\nline"])
        XCTAssertEqual(invalid.status, 64)
        XCTAssertEqual(
            invalid.stderr,
            "moya-cli: error: '1st\\nline' is not a valid case name: use letters, digits and _, not starting with a digit\n"
        )
        let url = try run(["request", "GET", "http://127.0.0.1:\(server.port)/get", "--save-as", "x"])
        XCTAssertEqual(url.status, 64)
        XCTAssertEqual(
            url.stderr,
            "moya-cli: error: --save-as x: a URL has no target file; give --save-as API.x, which adds the case to API's target file, or starts targets/API.yaml with the URL's origin as its base URL\n"
        )
        let sampleAlone = try run(["request", "web", "GET", "/x", "--save-sample"])
        XCTAssertEqual(sampleAlone.status, 64)
        XCTAssertTrue(
            sampleAlone.stderr.hasPrefix("moya-cli: error: --save-sample needs --save-as CASE"), sampleAlone.stderr)
        let queryEdit = try run(["request", "web", "GET", "/x", "--query", "a=1", "--save-as", "x"])
        XCTAssertEqual(queryEdit.status, 64)
        XCTAssertEqual(
            queryEdit.stderr,
            "moya-cli: error: --save-as cannot save --query edits; give the query as NAME==VALUE items\n")

        XCTAssertEqual(chmod(path, 0o444), 0)
        let readOnly = try run(["request", "web", "GET", "/x", "--save-as", "x"])
        XCTAssertEqual(readOnly.status, 74)
        XCTAssertEqual(readOnly.stderr, "moya-cli: error: cannot add a case to targets/web.yaml: it is read-only\n")
        XCTAssertEqual(chmod(path, 0o644), 0)

        let real = folder.url.path + "/real.yaml"
        XCTAssertEqual(rename(path, real), 0)
        XCTAssertEqual(symlink(real, path), 0)
        let linked = try run(["request", "web", "GET", "/x", "--save-as", "x"])
        XCTAssertEqual(linked.status, 74)
        XCTAssertEqual(
            linked.stderr,
            "moya-cli: error: targets/web.yaml is a symbolic link; cases are added only to the file itself: give its real path (--targets) or edit it by hand\n"
        )

        XCTAssertEqual(server.receivedRequests.count, 0, "nothing was sent")
        XCTAssertEqual(try String(contentsOfFile: real, encoding: .utf8), original, "no byte changed")
    }

    func testRawBodiesFormsAndHeaderOptionsAreSavedAsSent() throws {
        let data = try run(
            [
                "request", "web", "PUT", "/anything/note", "--data", "-", "-H", "Content-Type: text/plain", "--save-as",
                "note"
            ],
            stdin: Data("hello {you}\n".utf8))
        XCTAssertEqual(data.status, 0, data.stderr)
        let form = try run([
            "request", "web", "POST", "/anything/form", "--form", "a=1", "a=2", "b=x y", "--save-as", "form"
        ])
        XCTAssertEqual(form.status, 0, form.stderr)
        XCTAssertEqual(form.stderr, "moya-cli: saved case 'form' in targets/web.yaml (line 17)\n")
        let text = try fileText()
        XCTAssertTrue(
            text.contains(
                """
                  note:
                    method: PUT
                    path: /anything/note
                    headers: {Content-Type: text/plain}
                    task: {data: "hello {{you}}\\n"}
                  form:
                    method: POST
                    path: /anything/form
                    task:
                      parameters: {a: ["1", "2"], b: x y}
                      encoding: url
                      destination: httpBody
                      arrayEncoding: noBrackets
                # after the last case
                """), text)
        let sentNote = server.receivedRequests[0]
        XCTAssertEqual(try run(["call", "web", "note"]).status, 0)
        XCTAssertEqual(server.receivedRequests.last?.body, sentNote.body)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Content-Type"), "text/plain")
        XCTAssertEqual(try run(["call", "web", "form"]).status, 0)
        XCTAssertEqual(server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, "a=1&a=2&b=x%20y")
    }

    func testAFilePartBecomesAFileValueOfTheCase() throws {
        _ = try folder.write("cover.txt", "cover bytes")
        let result = try run([
            "request", "web", "POST", "/anything/upload", "title=hi", "cover@cover.txt", "--save-as", "upload"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let saved = try fileText()
        XCTAssertTrue(
            saved.contains(
                """
                  upload:
                    values: [{cover: file}]
                    method: POST
                    path: /anything/upload
                    task: {multipart: [{name: title, value: hi}, {name: cover, file: "{cover}"}]}
                    examples: [{cover: samples/web/upload-cover.txt}]

                """), saved)
        XCTAssertEqual(
            try String(contentsOfFile: folder.url.path + "/targets/samples/web/upload-cover.txt", encoding: .utf8),
            "cover bytes", "the file sent is the case's example, copied beside the target file")
        let check = try run(["check", "web"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        // A file in the target file's folder is named where it is; one too large to copy is said.
        _ = try folder.write("targets/inside.txt", "inside")
        let inside = try run([
            "request", "web", "POST", "/anything/up2", "doc@targets/inside.txt", "--save-as", "upload2"
        ])
        XCTAssertEqual(inside.status, 0, inside.stderr)
        let withInside = try fileText()
        XCTAssertTrue(withInside.contains("    examples: [{doc: inside.txt}]\n"), withInside)
        _ = try folder.write("big.bin", String(repeating: "x", count: 70_000))
        let big = try run(["request", "web", "POST", "/anything/up3", "blob@big.bin", "--save-as", "upload3"])
        XCTAssertEqual(big.status, 0, big.stderr)
        XCTAssertTrue(big.stderr.contains("moya-cli: the file value 'blob' has no example"), big.stderr)
        XCTAssertFalse(try fileText().contains("examples: [{blob"))
        XCTAssertFalse(saved.contains(folder.url.path), "the command line's path is not written")
        let again = try run(["call", "web", "upload", "cover.txt"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(
            server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self).contains("cover bytes") }
                == true)
    }

    func testAFailedRequestIsNotSaved() throws {
        let result = try run(["request", "web", "GET", "/status/404", "--save-as", "missing"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(try fileText(), original)
    }

    /// `-u` and `--bearer` on `request` as on `call`: sent instead of the file's auth, redacted,
    /// refused next to `--auth`, and saved reading an auth scheme's secret variable
    /// (SavedCredentialTests has the schemes).
    func testOneOffCredentialsAreSentRedactedAndSavedAsASecretReference() throws {
        let basic = try run(["request", "web", "GET", "/basic-auth/alice/pw-s3cret", "-u", "alice:pw-s3cret", "-v"])
        XCTAssertEqual(basic.status, 0, basic.stderr)
        XCTAssertEqual(
            server.receivedRequests.last?.value(of: "Authorization"),
            "Basic " + Data("alice:pw-s3cret".utf8).base64EncodedString())
        XCTAssertTrue(basic.stderr.contains("> Authorization: Basic <redacted>\n"), basic.stderr)
        XCTAssertFalse(basic.stderr.contains("pw-s3cret"), basic.stderr)

        let refused = try run(["request", "web", "GET", "/bearer", "--bearer", "t0ken", "--auth", "none"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertEqual(
            refused.stderr,
            "moya-cli: error: --auth none: -u and --bearer replace the API's auth for this request; leave out one or the other\n"
        )

        let before = server.receivedRequests.count
        let saved = try run(["request", "web", "GET", "/bearer", "--bearer", "t0ken-s3cret", "--save-as", "withToken"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(server.receivedRequests.count, before + 1)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), "Bearer t0ken-s3cret")
        XCTAssertTrue(
            saved.stderr.contains(
                "moya-cli: the case reads the bearer token from ${secret:MOYA_WEB_TOKEN}; set MOYA_WEB_TOKEN to call it\n"
            ), saved.stderr)
        let text = try fileText()
        XCTAssertFalse(text.contains("t0ken-s3cret"), "a credential is never written")
        XCTAssertTrue(
            text.contains(
                """
                  withToken:
                    method: GET
                    path: /bearer
                    auth: bearer

                """), text)
    }

    /// A credential outside a header is never written either (issue 39's rule for imports, now
    /// every writer's): a password in the path, a query parameter named like one, a copy of the
    /// token in another header; each becomes a value of the case, or a secret header.
    func testACredentialInThePathOrQueryBecomesAValue() throws {
        let saved = try run([
            "request", "web", "GET", "/basic-auth/alice/pw-s3cret?access_token=at-s3cret", "-u", "alice:pw-s3cret",
            "X-Copy:pw-s3cret", "--save-as", "login"
        ])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertTrue(
            saved.stderr.contains(
                "moya-cli: the case takes the query parameter access_token, a credential, as its value 'access_token': it is not written; give it when you call the case\n"
            ), saved.stderr)
        XCTAssertTrue(saved.stderr.contains("moya-cli: the case takes a path segment"), saved.stderr)
        XCTAssertFalse(saved.stderr.contains("s3cret"), saved.stderr)
        let text = try fileText()
        XCTAssertFalse(text.contains("s3cret"), "a credential is never written:\n\(text)")
        XCTAssertTrue(text.contains("X-Copy: \"${secret:MOYA_WEB_X_COPY}\""), text)
        // Called again with the values and the variables, it sends what was sent.
        let again = try CLIRunner.run(
            ["call", "web", "login", "pw-s3cret", "at-s3cret", "-u", "alice:pw-s3cret"],
            environment: [
                "HOME": folder.url.path, "MOYA_WEB_X_COPY": "pw-s3cret", "MOYA_ALLOW_ENV": "MOYA_WEB_X_COPY"
            ], currentDirectory: folder.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        let received = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(received.target, "/basic-auth/alice/pw-s3cret?access_token=at-s3cret")
        XCTAssertEqual(received.value(of: "X-Copy"), "pw-s3cret")
    }
}
