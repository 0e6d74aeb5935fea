import Foundation
import MoyaKit
import OrderedJSON
import TargetModel
import TargetSpec
import XCTest

/// A request rendered as a case: the exact YAML, and the request the case then sends (built by
/// the loader and MoyaKit) is the one that was sent.
final class NewCaseRenderTests: XCTestCase {
    private let file = "api: hb\nbaseURL: https://example.com\ncases:\n  get:\n    path: /get\n"

    /// The file with `request` added as `name`, the case text, and the request it builds.
    private func saved(
        _ request: NewCase, name: String = "added", environment: [String: String] = [:],
        sourceFile: StaticString = #filePath, line: UInt = #line
    ) throws -> (text: String, request: URLRequest, rendered: RenderedCase, sampleData: Data) {
        let rendered = try request.render(apiName: "hb")
        let edited = try CaseAppender.appending(name, members: rendered.members, to: Array(file.utf8), file: "t.yaml")
        let text = String(decoding: edited.bytes, as: UTF8.self)
        let loaded = TargetFileLoader.load(text: text, file: "t.yaml")
        let api = try XCTUnwrap(loaded.api, loaded.renderedDiagnostics() + "\n" + text, file: sourceFile, line: line)
        let spec = try XCTUnwrap(api.cases.first { $0.name == name }, file: sourceFile, line: line)
        let target = try TargetBuilder(api: api, processEnvironment: environment).target(for: spec, arguments: [:])
        let urlRequest = try MoyaProvider<DynamicTarget>.defaultEndpointMapping(for: target).urlRequest()
        return (String(text.dropFirst(file.count)), urlRequest, rendered, target.sampleData)
    }

    func testJSONBodyWithQueryAndHeaders() throws {
        var request = NewCase(method: "POST", path: "/anything/{x}")
        request.query = [.init(name: "page", value: "2")]
        request.headers = [.init(name: "X-Note", value: "a ${HOME} {b}")]
        request.body = .json(
            .object([
                ("name", .string("{id}")), ("n", .int(1)), ("d", .number(try XCTUnwrap(JSONNumber("2.50")))),
                ("ok", .bool(true)),
                ("none", .null), ("tags", .array([.string("a"), .string("true")]))
            ]))
        let result = try saved(request)
        XCTAssertEqual(
            result.text,
            """
              added:
                method: POST
                path: "/anything/{{x}}"
                headers: {X-Note: "a $${HOME}} {{b}}"}
                task:
                  json: {name: "{{id}}", "n": 1, d: 2.50, ok: true, none: null, tags: [a, "true"]}
                  query: {page: "2"}

            """)
        XCTAssertEqual(result.request.url?.absoluteString, "https://example.com/anything/%7Bx%7D?page=2")
        XCTAssertEqual(result.request.value(forHTTPHeaderField: "X-Note"), "a ${HOME} {b}")
        XCTAssertEqual(
            result.request.httpBody.map { String(decoding: $0, as: UTF8.self) },
            #"{"name":"{id}","n":1,"d":2.50,"ok":true,"none":null,"tags":["a","true"]}"#)
    }

    /// No credential is written anywhere in a case, whichever writer renders it: a parameter or
    /// body field named like one, and any part that repeats what a secret header sends (the
    /// path, the query, the body, another header), become values or secret headers.
    func testNoCredentialIsWrittenOutsideItsHeader() throws {
        let token = "tok_9f8e7d6c5b4a"
        var request = NewCase(method: "POST", path: "/users/\(token)/keys")
        request.query = [.init(name: "access_token", value: "other-secret-1"), .init(name: "echo", value: token)]
        request.headers = [
            .init(name: "Authorization", value: "Bearer \(token)"), .init(name: "X-Echo", value: token),
            .init(name: "X-Plain", value: "hello")
        ]
        request.body = .json(
            .object([
                ("user", .string("moya")), ("password", .string("hunter2-secret")),
                ("nested", .object([("copy", .string(token)), ("client_secret", .string("cs-secret"))]))
            ]))
        let rendered = try request.render(apiName: "hb")
        let edited = try CaseAppender.appending(
            "added", members: rendered.members, to: Array(file.utf8), file: "t.yaml")
        let text = String(decoding: edited.bytes, as: UTF8.self)
        let loaded = TargetFileLoader.load(text: text, file: "t.yaml")
        XCTAssertNotNil(loaded.api, loaded.renderedDiagnostics() + "\n" + text)
        let result = (text: text, rendered: rendered)
        for secret in [token, "other-secret-1", "hunter2-secret", "cs-secret"] {
            XCTAssertFalse(result.text.contains(secret), "\(secret) written:\n\(result.text)")
        }
        XCTAssertEqual(
            result.rendered.credentialValues.map(\.value),
            ["authorization", "password", "copy", "client_secret", "access_token", "echo"])
        XCTAssertTrue(result.text.contains(#"path: "/users/{authorization}/keys""#), result.text)
        XCTAssertTrue(result.text.contains(#"X-Echo: "${secret:MOYA_HB_X_ECHO}""#), result.text)
        XCTAssertTrue(result.text.contains("X-Plain: hello"), result.text)
        XCTAssertTrue(result.text.contains("user: moya"), result.text)
        XCTAssertEqual(result.rendered.secrets.map(\.header), ["Authorization", "X-Echo"])
        // A form body written as text, and a second pass over what is already a value: no change.
        var form = NewCase(method: "POST", path: "/login")
        form.headers = [
            .init(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            .init(name: "X-Api-Key", value: "key-123456")
        ]
        form.body = .text("user=moya&password=pw-secret&copy=key-123456")
        let formCase = try form.render(apiName: "hb")
        var members = formCase.members
        var taken = Set(formCase.credentialValues.map(\.value))
        XCTAssertEqual(formCase.credentialValues.map(\.value), ["password", "copy"])
        XCTAssertEqual(
            NewCase.credentialsAsValues(in: &members, isForm: true, secrets: [("x", "key-123456")], taken: &taken), [])
        XCTAssertEqual(YAMLText.render(members, header: []), YAMLText.render(formCase.members, header: []))
        XCTAssertFalse(YAMLText.render(members, header: []).contains("pw-secret"))
    }

    func testRepeatedQueryWithoutBodyAndFormFields() throws {
        var request = NewCase(method: "GET", path: "/get")
        request.query = [.init(name: "tag", value: "a"), .init(name: "tag", value: "b"), .init(name: "q", value: "x y")]
        let get = try saved(request)
        XCTAssertEqual(
            get.text,
            """
              added:
                method: GET
                path: /get
                task: {parameters: {tag: [a, b], q: x y}, encoding: url, arrayEncoding: noBrackets}

            """)
        XCTAssertEqual(get.request.url?.absoluteString, "https://example.com/get?q=x%20y&tag=a&tag=b")

        var form = NewCase(method: "POST", path: "/post")
        form.body = .form([.init(name: "a", value: "1"), .init(name: "a", value: "2")])
        form.query = [.init(name: "q", value: "1")]
        let posted = try saved(form)
        XCTAssertEqual(posted.request.httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=1&a=2")
        XCTAssertEqual(posted.request.url?.absoluteString, "https://example.com/post?q=1")

        var refused = NewCase(method: "POST", path: "/post")
        refused.body = .text("x")
        refused.query = [.init(name: "tag", value: "a"), .init(name: "tag", value: "b")]
        XCTAssertThrowsError(try refused.render(apiName: "hb")) { error in
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "the query repeats 'tag' next to a body; a case with a body sends one value per query parameter")
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 64)
        }
    }

    func testSecretHeadersBecomeReferencesNamedForTheUser() throws {
        var request = NewCase(method: "GET", path: "/bearer")
        request.headers = [
            .init(name: "Authorization", value: "Bearer s3cret"), .init(name: "Cookie", value: "id=s3cret"),
            .init(name: "X-API-Key", value: "s3cret"), .init(name: "X-Mine", value: "s3cret", isSecret: true),
            .init(name: "x-mine", value: "other", isSecret: true)
        ]
        request.auth = .none
        let result = try saved(
            request,
            environment: [
                "MOYA_HB_AUTHORIZATION": "Bearer t", "MOYA_HB_COOKIE": "c", "MOYA_HB_X_API_KEY": "k",
                "MOYA_HB_X_MINE": "m", "MOYA_HB_X_MINE_2": "m2"
            ])
        XCTAssertFalse(result.text.contains("s3cret"))
        XCTAssertEqual(
            result.text,
            """
              added:
                method: GET
                path: /bearer
                headers:
                  Authorization: "${secret:MOYA_HB_AUTHORIZATION}"
                  Cookie: "${secret:MOYA_HB_COOKIE}"
                  X-API-Key: "${secret:MOYA_HB_X_API_KEY}"
                  X-Mine: "${secret:MOYA_HB_X_MINE}"
                  x-mine: "${secret:MOYA_HB_X_MINE_2}"
                auth: none

            """)
        XCTAssertEqual(
            result.rendered.secrets.map(\.variable),
            ["MOYA_HB_AUTHORIZATION", "MOYA_HB_COOKIE", "MOYA_HB_X_API_KEY", "MOYA_HB_X_MINE", "MOYA_HB_X_MINE_2"])
        XCTAssertEqual(result.request.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    func testSamples() throws {
        var request = NewCase(method: "GET", path: "/json")
        request.sample = .init(
            status: 201, contentType: "application/json; charset=utf-8", body: Array(#"{"id": "{x}", "n": 1e2}"#.utf8))
        XCTAssertEqual(
            try saved(request).text,
            """
              added:
                method: GET
                path: /json
                sample:
                  status: 201
                  headers: {Content-Type: "application/json; charset=utf-8"}
                  json: {id: "{{x}}", "n": 1e2}

            """)
        XCTAssertEqual(
            try JSONValue(parsing: try saved(request).sampleData), try JSONValue(parsing: #"{"id": "{x}", "n": 1e2}"#))
        request.sample = .init(
            status: 200, contentType: "text/plain", body: Array("line 1\nline: 2 # not a comment\r\n".utf8))
        XCTAssertEqual(
            Array(try saved(request).sampleData), Array("line 1\nline: 2 # not a comment\r\n".utf8),
            "the stub answers what the server did")
        XCTAssertEqual(
            try saved(request).text,
            """
              added:
                method: GET
                path: /json
                sample: {headers: {Content-Type: text/plain}, text: "line 1\\nline: 2 # not a comment\\r\\n"}

            """)
        request.sample = .init(status: 204)
        XCTAssertTrue(try saved(request).text.hasSuffix("    sample: {status: 204}\n"))
        request.sample = .init(status: 200, contentType: "application/octet-stream", body: [0xFF, 0xFE, 0x00])
        let binary = try saved(request)
        XCTAssertFalse(binary.text.contains("sample"))
        XCTAssertEqual(binary.rendered.sampleOmission, "the response is not UTF-8 text; no sample was saved")
        request.sample = .init(
            status: 200, contentType: "text/plain",
            body: [UInt8](repeating: UInt8(ascii: "a"), count: NewCase.maximumSampleBytes + 1))
        let huge = try saved(request)
        XCTAssertFalse(huge.text.contains("sample"))
        XCTAssertEqual(
            huge.rendered.sampleOmission, "the response (65537 bytes) is larger than 65536 bytes; no sample was saved")
    }

    func testSecretsEchoedInTheSampleAreRedacted() throws {
        var request = NewCase(method: "GET", path: "/echo")
        request.headers = [.init(name: "Authorization", value: "Bearer abcd1234", isSecret: true)]
        request.secretValues = ["t0ken-value", "pw"]
        request.sample = .init(
            status: 200, contentType: "application/json",
            body: Array(
                #"{"auth": "Bearer abcd1234", "token": "abcd1234", "api": "x t0ken-value y", "t0ken-value": "pw"}"#.utf8
            ))
        let text = try saved(request, environment: ["MOYA_HB_AUTHORIZATION": "x"]).text
        XCTAssertTrue(
            text.contains(#"json: {auth: "<redacted>", token: "<redacted>", api: "x <redacted> y", "<redacted>": pw}"#),
            text)
        XCTAssertFalse(text.contains("abcd1234") || text.contains("t0ken"), text)
    }

    func testMultipartFilesBecomeFileValues() throws {
        var request = NewCase(method: "POST", path: "/upload")
        request.body = .multipart([
            .init(name: "title", content: .text("hi {there}")),
            .init(name: "photo-1", content: .file(fileName: "me.png", mimeType: "image/png"))
        ])
        let rendered = try request.render(apiName: "hb")
        let edited = try CaseAppender.appending(
            "upload", members: rendered.members, to: Array(file.utf8), file: "t.yaml")
        let text = String(decoding: edited.bytes, as: UTF8.self)
        XCTAssertEqual(
            String(text.dropFirst(file.count)),
            """
              upload:
                values: [{photo_1: file}]
                method: POST
                path: /upload
                task:
                  multipart:
                    - {name: title, value: "hi {{there}}"}
                    - {name: photo-1, file: "{photo_1}", fileName: me.png, mimeType: image/png}

            """)
        XCTAssertFalse(TargetFileLoader.load(text: text, file: "t.yaml").hasErrors)
    }

    /// Hostile values: CR, LF, NUL, YAML's indicators, leading `-`, huge values. Each lands in
    /// the file as the value sent, never as structure.
    func testHostileValuesStayValues() throws {
        let nasty = [
            "a\r\nX-Injected: 1", "nul\u{0}byte", ": # & * ! | > ' \" % @", "- item", "? k", "[1, 2]", "{a: b}",
            "&anchor", "*alias",
            "!!int 5", "--- ", "...", "#comment", "null", "~", "yes", "0x10", "1e3", " lead", "trail ", "\u{2028}ls",
            "\u{FEFF}bom", "tab\there",
            String(repeating: "x", count: 200_000)
        ]
        for value in nasty {
            var request = NewCase(method: "POST", path: "/p")
            request.query = [.init(name: value, value: value)]
            request.body = .json(.object([(value, .string(value))]))
            let result = try saved(request)
            let body = try XCTUnwrap(result.request.httpBody)
            XCTAssertEqual(
                try JSONValue(parsing: body), .object([(value, .string(value))]),
                value.debugDescription.prefix(40).description)
            XCTAssertTrue(result.request.url?.absoluteString.hasPrefix("https://example.com/p") == true)
        }
        var braces = NewCase(method: "POST", path: "/p")
        braces.body = .json(.object([("{id}", .object([("{{x}}", .string("${y}"))]))]))
        braces.sample = .init(status: 200, contentType: "application/json", body: Array(#"{"{id}": "{id}"}"#.utf8))
        let bracesSaved = try saved(braces)
        XCTAssertEqual(
            try bracesSaved.request.httpBody.map { try JSONValue(parsing: $0) },
            .object([("{id}", .object([("{{x}}", .string("${y}"))]))]))
        let encoded = try saved(NewCase(method: "GET", path: "/a%20b/%7Bx%7D/caf%C3%A9"))
        XCTAssertEqual(
            encoded.request.url?.absoluteString, "https://example.com/a%20b/%7Bx%7D/caf%C3%A9",
            "a percent-encoded path is sent as it was")
        for path in ["/a b", "/a\r\nb", "/a\u{0}", "/a\u{7F}", "no-slash"] {
            XCTAssertThrowsError(try NewCase(method: "GET", path: path).render(apiName: "hb"), path.debugDescription) {
                error in
                XCTAssertEqual((error as? TargetFileEditError)?.kind, .usage)
            }
        }
        var injected = NewCase(method: "GET", path: "/h")
        injected.headers = [.init(name: "X-A", value: "1\r\nX-B: 2")]
        XCTAssertThrowsError(try injected.render(apiName: "hb")) { error in
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "the header X-A's value '1\\r\\nX-B: 2' holds CR, LF or NUL; it cannot be saved in a case")
        }
        var header = NewCase(method: "GET", path: "/h")
        header.headers = [.init(name: "X-Odd", value: ": # & * ! | > ' \" % @ - {x} ${y} $${z}")]
        XCTAssertEqual(
            try saved(header).request.value(forHTTPHeaderField: "X-Odd"), ": # & * ! | > ' \" % @ - {x} ${y} $${z}")
    }
}
