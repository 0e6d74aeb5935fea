import Foundation
import Synchronization
import TargetServe
import TargetSpec
import XCTest

/// The server on loopback, answering a small target file; requests written byte by byte by
/// `RawConnection`, as a client (well-behaved or not) sends them.
final class SampleServerTests: XCTestCase {
    static let users = """
        api: users
        baseURL: https://example.com/api/v3
        auth: {type: apiKey, in: query, name: api_key, key: "${secret:USERS_KEY}"}
        cases:
          user:
            values: [{name: string}]
            path: /users/{name}
            samples:
              ok: {json: {login: "{name}", id: 100}, headers: {X-Login: "{name}"}}
              missing: {status: 404, json: {message: Not Found}}
              offline: {error: timeout}
              reset: {error: connectionReset}
              loop: {error: tooManyRedirects}
          repos:
            values: [{name: string}, {page: {type: int, default: 1}}, {sort: {enum: [name, pushed]}}]
            path: /users/{name}/repos
            task: {parameters: {page: "{page}", sort: "{sort}"}, encoding: url}
            sample: {json: [{name: "repo", page: "{page}", sort: "{sort}"}]}
          createUser:
            values: [{login: string}]
            path: /users
            method: POST
            task: {json: {login: "{login}"}}
            sample: {status: 201, json: {login: "{login}"}}
          slow:
            path: /slow
            timeout: 0.3
            sample: {error: timeout}
        """

    /// The log lines, as the server wrote them (from its event loops).
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        func withLock<T: Sendable>(_ body: (inout [String]) -> sending T) -> T { lines.withLock { body(&$0) } }
    }

    private var server: SampleServer?
    private let lines = Log()
    private var port: Int { server?.port ?? 0 }

    private func builder(_ yaml: String, file: String) throws -> TargetBuilder {
        let result = TargetFileLoader.load(text: yaml, file: file)
        let api = try XCTUnwrap(result.api, result.diagnostics.map(\.message).joined(separator: "\n"))
        return TargetBuilder(api: api, processEnvironment: ["USERS_KEY": "s3cr3t-key"], isStubbed: true)
    }

    private func start(
        _ yaml: String = SampleServerTests.users, _ configure: (inout SampleServer.Configuration) -> Void = { _ in }
    ) throws {
        var configuration = SampleServer.Configuration()
        configuration.port = 0
        configure(&configuration)
        let lines = self.lines
        server = try SampleServer(
            builders: [try builder(yaml, file: "users.yaml")], configuration: configuration
        ) { line in lines.withLock { $0.append(line) } }
    }

    override func tearDown() {
        server?.stop()
        server?.waitUntilStopped()
    }

    private func get(_ target: String, headers: String = "") throws -> (head: String, body: String) {
        let connection = try RawConnection(port: port)
        connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n")
        return try XCTUnwrap(connection.readResponse(), "an answer to \(target)")
    }

    func testAnswersTheDefaultSampleUnderTheBaseURLPathWithValuesFromThePath() throws {
        try start()
        let (head, body) = try get("/api/v3/users/ash%20furrow")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), head)
        XCTAssertTrue(head.contains("X-Login: ash furrow\r\n"), head)
        XCTAssertTrue(head.lowercased().contains("content-type: application/json"), head)
        XCTAssertEqual(body, #"{"login":"ash furrow","id":100}"#)
    }

    func testPreferPicksASampleByNameOrStatus() throws {
        try start()
        let missing = try get("/api/v3/users/x", headers: "Prefer: example=missing\r\n")
        XCTAssertTrue(missing.head.hasPrefix("HTTP/1.1 404 Not Found\r\n"), missing.head)
        XCTAssertEqual(missing.body, #"{"message":"Not Found"}"#)
        let byCode = try get("/api/v3/users/x", headers: "Prefer: return=minimal, code=404\r\n")
        XCTAssertEqual(byCode.body, #"{"message":"Not Found"}"#)
    }

    func testAnUnknownPreferredSampleIs404NamingTheSamples() throws {
        try start()
        let (head, body) = try get("/api/v3/users/x", headers: "Prefer: example=gone\r\n")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 404"), head)
        XCTAssertEqual(
            body,
            #"{"error":"case 'users.user' has no sample named 'gone'","samples":["ok","missing","offline","reset","loop"]}"#
                + "\n")
        let code = try get("/api/v3/users/x", headers: "Prefer: code=500\r\n")
        XCTAssertEqual(
            code.body, #"{"error":"case 'users.user' has no sample with status 500","statuses":[200,404]}"# + "\n")
    }

    func testSampleOptionAnswersEveryCaseThatHasIt() throws {
        try start(Self.users) { $0.defaultSample = "missing" }
        XCTAssertEqual(try get("/api/v3/users/x").body, #"{"message":"Not Found"}"#)
        XCTAssertEqual(try get("/api/v3/users/x/repos?sort=name").body, #"[{"name":"repo","page":1,"sort":"name"}]"#)
    }

    func testAnUnknownSampleOptionIsRefusedAtStart() throws {
        XCTAssertThrowsError(try start(Self.users) { $0.defaultSample = "nope" }) { error in
            XCTAssertEqual(
                "\(error)",
                "no served case has a sample named 'nope'; samples: ok, missing, offline, reset, loop, default")
        }
    }

    func testQueryValuesAreTypedAndChecked() throws {
        try start()
        XCTAssertEqual(
            try get("/api/v3/users/x/repos?page=2&sort=pushed").body, #"[{"name":"repo","page":2,"sort":"pushed"}]"#)
        let wrong = try get("/api/v3/users/x/repos?page=two&sort=pushed")
        XCTAssertTrue(wrong.head.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), wrong.head)
        XCTAssertEqual(
            wrong.body,
            #"{"error":"invalid value","value":"page","reason":"'two' is not an int for value 'page'","case":"users.repos"}"#
                + "\n")
        let notInEnum = try get("/api/v3/users/x/repos?sort=stars")
        XCTAssertEqual(
            notInEnum.body,
            #"{"error":"invalid value","value":"sort","reason":"'stars' is not one of name, pushed for value 'sort'","case":"users.repos"}"#
                + "\n")
        let missing = try get("/api/v3/users/x/repos")
        XCTAssertEqual(
            missing.body,
            #"{"error":"missing value","value":"sort","reason":"missing value 'sort' (one of name, pushed)","case":"users.repos"}"#
                + "\n")
    }

    func testValuesFromAJSONBody() throws {
        try start()
        let connection = try RawConnection(port: port)
        let json = #"{"login":"newbie"}"#
        connection.send(
            "POST /api/v3/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)"
        )
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 201 Created\r\n"), response.head)
        XCTAssertEqual(response.body, #"{"login":"newbie"}"#)
    }

    func testAnUnknownRouteIs404NamingTheClosestCases() throws {
        try start()
        let (head, body) = try get("/api/v3/user/x")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 404 Not Found\r\n"), head)
        XCTAssertEqual(
            body,
            #"{"error":"no case answers GET /api/v3/user/x","closest":["GET /api/v3/users/{name} (users.user)","POST /api/v3/users (users.createUser)","GET /api/v3/slow (users.slow)"]}"#
                + "\n")
    }

    func testHEADOnAGETRouteIsTheGETAnswerWithoutItsBody() throws {
        try start()
        let connection = try RawConnection(port: port)
        connection.send(
            "HEAD /api/v3/users/octo HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api/v3/users/octo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: connection.readToEnd().bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        XCTAssertEqual(parts.count, 3, text)
        let body = #"{"login":"octo","id":100}"#
        XCTAssertTrue(parts[0].hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertTrue(parts[0].contains("\r\nContent-Length: \(body.utf8.count)"), text)
        XCTAssertTrue(parts[0].contains("\r\nX-Login: octo"), text)
        // No body between the two heads: the GET's answer follows the HEAD's head at once.
        XCTAssertTrue(parts[1].hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertEqual(parts[2], body)
        XCTAssertTrue(lines.withLock { $0 }.first?.hasPrefix("HEAD /api/v3/users/octo users.user 200 ") ?? false)
    }

    func testAKnownPathWithAnotherMethodIs405WithAllow() throws {
        try start()
        let connection = try RawConnection(port: port)
        connection.send("DELETE /api/v3/users/x HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), response.head)
        XCTAssertTrue(response.head.contains("Allow: GET, HEAD\r\n"), response.head)
    }

    func testAClientsValueCannotAddAHeaderLine() throws {
        try start()
        let (head, _) = try get("/api/v3/users/a%0D%0ASet-Cookie:%20stolen=1")
        XCTAssertFalse(head.contains("\r\nSet-Cookie"), head)
        XCTAssertTrue(head.contains("X-Login: a  Set-Cookie: stolen=1\r\n"), head)
    }

    func testTheLogNamesCaseAndStatusRedactsTheKeyAndEscapesControlCharacters() throws {
        try start()
        _ = try get("/api/v3/users/%1B%5B31m?api_key=client-secret&x=s3cr3t-key")
        let line = try XCTUnwrap(lines.withLock { $0.last })
        XCTAssertTrue(
            line.hasPrefix("GET /api/v3/users/%1B%5B31m?api_key=<redacted>&x=<redacted> users.user 200 "), line)
        XCTAssertTrue(line.hasSuffix(" ms"), line)
        _ = try get("/x\u{1B}y")
        let raw = try XCTUnwrap(lines.withLock { $0.last })
        XCTAssertFalse(raw.contains("\u{1B}"), raw)
    }

    func testATimeoutSampleHoldsTheRequestThenCloses() throws {
        try start()
        let connection = try RawConnection(port: port)
        connection.send("GET /api/v3/slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let (bytes, error) = connection.readToEnd()
        XCTAssertEqual(bytes, [])
        XCTAssertNil(error, "closed, not timed out on the client's side")
        XCTAssertTrue(lines.withLock { $0.last ?? "" }.contains("users.slow timeout (closed after 0.3 s)"))
    }

    func testATimeoutSampleEndsWhenTheClientGoes() throws {
        try start()
        do {
            let connection = try RawConnection(port: port)
            connection.send("GET /api/v3/users/x HTTP/1.1\r\nHost: x\r\nPrefer: example=offline\r\n\r\n")
            _ = try RawConnection(port: port)  // the request is read before this connection goes
        }
        for _ in 0..<500 where !lines.withLock({ $0.contains { $0.contains("timeout (client gone)") } }) {
            usleep(10_000)
        }
        XCTAssertTrue(lines.withLock { $0.contains { $0.contains("users.user timeout (client gone)") } })
    }

    func testAConnectionErrorSampleResetsTheConnection() throws {
        try start()
        let connection = try RawConnection(port: port)
        connection.send("GET /api/v3/users/x HTTP/1.1\r\nHost: x\r\nPrefer: example=reset\r\n\r\n")
        let (bytes, error) = connection.readToEnd()
        XCTAssertEqual(bytes, [])
        XCTAssertEqual(error, ECONNRESET)
    }

    func testATooManyRedirectsSampleRedirectsToItself() throws {
        try start()
        let (head, _) = try get("/api/v3/users/x?a=1", headers: "Prefer: example=loop\r\n")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 307 Temporary Redirect\r\n"), head)
        XCTAssertTrue(head.contains("Location: /api/v3/users/x?a=1\r\n"), head)
    }

    func testTwoAPIsOnOneRouteAreRefusedNamingBothCases() throws {
        let other = """
            api: people
            baseURL: https://example.org/api/v3
            cases:
              person: {values: [{id: string}], path: "/users/{id}", sample: {json: {}}}
            """
        XCTAssertThrowsError(
            try SampleServer(
                builders: [try builder(Self.users, file: "users.yaml"), try builder(other, file: "people.yaml")],
                configuration: SampleServer.Configuration(), log: { _ in })
        ) { error in
            XCTAssertEqual(
                "\(error)",
                "people.yaml: case 'people.person' answers GET /api/v3/users/{id}, as 'users.user' does; cases of two "
                    + "APIs must differ in method or path (give one API a base URL path prefix, or serve them apart)")
        }
    }

    func testACasesOwnBaseURLPathAndADelayedAnswer() throws {
        try start(
            """
            api: mixed
            baseURL: https://example.com/v1
            cases:
              legacy: {path: /status, baseURL: "https://old.example.com/legacy", sample: {text: old}}
              current: {path: /status, sample: {text: new}}
            """
        ) { $0.delay = 0.05 }
        XCTAssertEqual(try get("/legacy/status").body, "old")
        XCTAssertEqual(try get("/v1/status").body, "new")
    }

    func testPipelinedRequestsWaitForADelayedAnswerAndComeInOrder() throws {
        try start { $0.delay = 0.05 }
        let connection = try RawConnection(port: port)
        connection.send(
            (1...3).map { "GET /api/v3/users/p\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
                + "GET /api/v3/users/p4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        for index in 1...4 {
            XCTAssertEqual(connection.readResponse()?.body, #"{"login":"p\#(index)","id":100}"#)
        }
        XCTAssertEqual(connection.readToEnd().bytes, [], "closed after the last")
    }

    func testEachAnswerIsDatedAndAnHTTP10KeepAliveIsKept() throws {
        try start()
        let connection = try RawConnection(port: port)
        connection.send("GET /api/v3/users/a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(first.head.components(separatedBy: "\r\n").contains("Connection: keep-alive"), first.head)
        let date = try XCTUnwrap(first.head.components(separatedBy: "\r\n").first { $0.hasPrefix("Date: ") })
        // IMF-fixdate: `Date: Sun, 06 Nov 1994 08:49:37 GMT`.
        XCTAssertEqual(date.count, "Date: Sun, 06 Nov 1994 08:49:37 GMT".count, date)
        XCTAssertTrue(date.hasSuffix(" GMT"), date)
        XCTAssertEqual(DateHeader.formatted(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(DateHeader.formatted(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT")
        connection.send("GET /api/v3/users/b HTTP/1.0\r\n\r\n")
        let second = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(second.head.components(separatedBy: "\r\n").contains("Connection: close"), second.head)
        XCTAssertEqual(second.body, #"{"login":"b","id":100}"#)
    }

    func testAFixedAnswerIsTheOneRoutingGivesEvenWhenAnotherRouteMatchesItsPath() throws {
        try start(
            """
            api: shadow
            baseURL: https://example.com/v1
            cases:
              user: {values: [{name: string}], path: "/users/{name}", sample: {json: {login: "{name}"}}}
              me: {path: /users/me, sample: {text: me}}
              health: {path: /health, sample: {text: ok}}
            """)
        // `/users/me` is matched by two cases: routed each time, with or without a query.
        let plain = try get("/v1/users/me")
        let routed = try get("/v1/users/me?x=1")
        XCTAssertEqual(plain.body, routed.body)
        XCTAssertEqual(try get("/v1/health").body, "ok")
        XCTAssertEqual(try get("/v1/health?x=1").body, "ok")
        let cases = lines.withLock { $0 }.map { $0.split(separator: " ")[2] }
        XCTAssertEqual(cases, [cases[0], cases[0], "shadow.health", "shadow.health"])
    }

    func testTheFilesSecretsAreNeverLogged() throws {
        try start(
            """
            api: echo
            baseURL: https://example.com
            headers: {X-Key: "${secret:USERS_KEY}"}
            auth: {type: bearer, token: "${USERS_KEY}"}
            cases:
              echo: {path: /headers, sample: {json: {ok: true}}}
            """)
        _ = try get("/headers?token=s3cr3t-key&pass=%73%33cr3t-key")
        XCTAssertTrue(
            lines.withLock { $0.last ?? "" }.hasPrefix("GET /headers?token=<redacted>&pass=<redacted> echo.echo 200 "),
            lines.withLock { $0.last ?? "" })
    }
    func testASecretInTheBaseURLsPathIsNeverLoggedNorListedAsClosest() throws {
        let yaml = """
            api: bot
            baseURL: https://api.telegram.org/bot${secret:USERS_KEY}
            cases:
              getMe: {path: /getMe, sample: {json: {ok: true}}}
              user:
                values: [{id: int}]
                path: /users/{id}
                sample: {json: {id: "{id}"}}
            """
        try start(yaml)
        XCTAssertEqual(try get("/bots3cr3t-key/getMe").body, #"{"ok":true}"#)
        XCTAssertEqual(try get("/bots3cr3t-key/users/7").body, #"{"id":7}"#)
        _ = try get("/bot%73%33cr3t-key/users/8")
        let missing = try get("/bots3cr3t-key/getYou")
        XCTAssertTrue(missing.head.hasPrefix("HTTP/1.1 404"), missing.head)
        XCTAssertTrue(missing.body.contains("GET /bot<redacted>/getMe (bot.getMe)"), missing.body)
        let logged = lines.withLock { $0 }
        XCTAssertEqual(logged.count, 4)
        XCTAssertTrue(logged[0].hasPrefix("GET /bot<redacted>/getMe bot.getMe 200 "), logged[0])
        XCTAssertTrue(logged[1].hasPrefix("GET /bot<redacted>/users/7 bot.user 200 "), logged[1])
        XCTAssertTrue(logged[2].hasPrefix("GET /bot<redacted>/users/8 bot.user 200 "), logged[2])
        for text in logged + [missing.body] {
            XCTAssertFalse(text.contains("s3cr3t"), text)
        }
    }

    func testASampleFileAnswersOneReasonWhetherMissingOrOutsideAndNamesNoPath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-oracle-\(getpid())")
            .path
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"found":true}"#.utf8).write(to: URL(fileURLWithPath: folder + "/data/here.json"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: folder + "/outside.json"))
        let yaml = """
            api: files
            baseURL: https://example.com
            cases:
              item:
                values: [{name: string}]
                path: /items/{name}
                sample: {file: "data/{name}.json"}
            """
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: folder + "/files.yaml"))
        let result = TargetFileLoader.load(path: folder + "/files.yaml", file: folder + "/files.yaml")
        let api = try XCTUnwrap(result.api, result.diagnostics.map(\.message).joined(separator: "\n"))
        var configuration = SampleServer.Configuration()
        configuration.port = 0
        let lines = self.lines
        server = try SampleServer(
            builders: [TargetBuilder(api: api, processEnvironment: [:], isStubbed: true)],
            configuration: configuration
        ) { line in lines.withLock { $0.append(line) } }
        XCTAssertEqual(try get("/items/here").body, #"{"found":true}"#)
        let missing = try get("/items/nothere")
        let outside = try get("/items/..%2F..%2Foutside")
        let folderItself = try get("/items/..")
        XCTAssertTrue(missing.head.hasPrefix("HTTP/1.1 500"), missing.head)
        XCTAssertEqual(missing.body, outside.body)
        XCTAssertEqual(missing.body, folderItself.body)
        XCTAssertEqual(
            missing.body,
            #"{"error":"the sample of 'files.item' cannot be rendered","reason":"its file cannot be read: no readable file of that name in the target file's folder"}"#
                + "\n")
        // The server's user reads the whole reason in the log.
        XCTAssertTrue(lines.withLock { $0 }.contains { $0.contains("500 (") && $0.contains(folder) })
    }
}
