import CLITestSupport
import Foundation
import Synchronization
import XCTest

/// Issue 41: `serve` as the mock a browser app calls from another origin — CORS, request checks
/// (400, 422 problem documents), credentials (401), a log that never stalls — through the binary,
/// with curl, raw sockets and headless Chromium.
final class ServeFrontEndTests: XCTestCase {
    static let shop = """
        api: shop
        baseURL: https://shop.example/v1
        auth: {type: bearer, token: "${SHOP_TOKEN}"}
        cases:
          item:
            values: [{id: int}]
            path: /items/{id}
            auth: none
            sample: {json: {id: "{id}", name: Lamp}}
          items:
            path: /items
            auth: none
            sample: {headers: {X-Total-Count: "2"}, json: [{id: 1}, {id: 2}]}
          create:
            method: POST
            path: /items
            auth: none
            values:
              - title: string
              - price: double
              - kind: {enum: [lamp, chair]}
              - note: {type: string, optional: true}
            task: {json: {title: "{title}", price: "{price}", kind: "{kind}", note: "{note}"}}
            sample: {status: 201, json: {title: "{title}", kind: "{kind}"}}
            examples: [[Floor lamp, 49.5, lamp]]
          signup:
            method: POST
            path: /signup
            auth: none
            values: [{email: string}, {age: int}]
            task: {parameters: {email: "{email}", age: "{age}"}, encoding: url}
            sample: {status: 201, json: {email: "{email}"}}
            examples: [[ex@shop.example, 30]]
          upload:
            method: POST
            path: /upload
            auth: none
            values: [{caption: string}, {count: int}]
            task:
              multipart:
                - {name: caption, value: "{caption}"}
                - {name: count, value: "{count}"}
            sample: {status: 201, json: {caption: "{caption}"}}
          me:
            path: /me
            sample: {json: {name: me}}
        """

    private func folder(_ files: [String: String] = ["shop.yaml": shop]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (name, text) in files { try folder.write("targets/\(name)", text) }
        return folder
    }

    /// The status line and headers as curl received them, without `Date` (the clock's).
    private func head(_ answer: String) -> [String] {
        let head = answer.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").filter { !$0.hasPrefix("Date: ") }
    }

    private func body(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    // MARK: - CORS

    func testAPreflightOfAServedRouteIs204WithItsMethodsTheAskedHeadersAndMaxAge() throws {
        let folder = try folder()
        let server = try ServeProcess([], in: folder.url)
        let preflight = try server.curl(
            "/v1/items",
            [
                "-X", "OPTIONS", "-H", "Origin: http://localhost:3000", "-H", "Access-Control-Request-Method: POST",
                "-H", "Access-Control-Request-Headers: content-type,x-trace"
            ])
        XCTAssertEqual(
            head(preflight),
            [
                "HTTP/1.1 204 No Content", "Access-Control-Allow-Methods: GET, POST, HEAD",
                "Access-Control-Allow-Headers: content-type, x-trace", "Access-Control-Max-Age: 600",
                "Access-Control-Allow-Origin: http://localhost:3000", "Access-Control-Allow-Credentials: true",
                "Vary: Origin"
            ], preflight)
        XCTAssertEqual(body(preflight), "")
        server.waitFor("OPTIONS /v1/items - 204 (preflight) ")
        // A path no case serves is not allowed: the browser is told what any request there is told.
        let unknown = try server.curl(
            "/v1/nothing",
            ["-X", "OPTIONS", "-H", "Origin: http://localhost:3000", "-H", "Access-Control-Request-Method: GET"])
        XCTAssertTrue(unknown.hasPrefix("HTTP/1.1 404 Not Found\r\n"), unknown)
        XCTAssertEqual(server.stop(), 130)
    }

    func testEveryAnswerEchoesTheOriginWithCredentialsAndExposesTheSamplesHeaders() throws {
        let folder = try folder()
        let server = try ServeProcess([], in: folder.url)
        let fromPage = try server.curl(
            "/v1/items", ["-H", "Origin: http://localhost:3000", "-H", "Cookie: session=s1"])
        XCTAssertEqual(
            head(fromPage),
            [
                "HTTP/1.1 200 OK", "X-Total-Count: 2", "Content-Type: application/json", "Content-Length: 19",
                "Access-Control-Allow-Origin: http://localhost:3000", "Access-Control-Allow-Credentials: true",
                "Vary: Origin", "Access-Control-Expose-Headers: X-Total-Count"
            ], fromPage)
        let withValues = try server.curl("/v1/items/7", ["-H", "Origin: http://127.0.0.1:5173"])
        XCTAssertTrue(withValues.contains("\r\nAccess-Control-Allow-Origin: http://127.0.0.1:5173\r\n"), withValues)
        // Without Origin (curl, another server): any origin, never credentials with `*`.
        let plain = try server.curl("/v1/items")
        XCTAssertTrue(plain.contains("\r\nAccess-Control-Allow-Origin: *\r\nVary: Origin\r\n"), plain)
        XCTAssertFalse(plain.contains("Access-Control-Allow-Credentials"), plain)
        // Errors carry it too, or the page could not read why.
        let missing = try server.curl("/v1/items/x", ["-H", "Origin: http://localhost:3000"])
        XCTAssertTrue(missing.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), missing)
        XCTAssertTrue(missing.contains("\r\nAccess-Control-Allow-Origin: http://localhost:3000\r\n"), missing)
        XCTAssertEqual(server.stop(), 130)
    }

    func testCORSOriginLimitsTheOriginsAndNoCORSTurnsItOff() throws {
        let folder = try folder()
        let limited = try ServeProcess(["--cors-origin", "http://localhost:3000"], in: folder.url)
        let allowed = try limited.curl("/v1/items", ["-H", "Origin: http://localhost:3000"])
        XCTAssertTrue(allowed.contains("\r\nAccess-Control-Allow-Origin: http://localhost:3000\r\n"), allowed)
        let other = try limited.curl("/v1/items", ["-H", "Origin: http://evil.example"])
        XCTAssertTrue(other.hasPrefix("HTTP/1.1 200 OK\r\n"), other)
        XCTAssertFalse(other.contains("Access-Control-"), other)
        let otherPreflight = try limited.curl(
            "/v1/items",
            ["-X", "OPTIONS", "-H", "Origin: http://evil.example", "-H", "Access-Control-Request-Method: GET"])
        XCTAssertTrue(otherPreflight.hasPrefix("HTTP/1.1 403 Forbidden\r\n"), otherPreflight)
        XCTAssertFalse(otherPreflight.contains("Access-Control-"), otherPreflight)
        XCTAssertEqual(limited.stop(), 130)

        let off = try ServeProcess(["--no-cors"], in: folder.url)
        let preflight = try off.curl(
            "/v1/items",
            ["-X", "OPTIONS", "-H", "Origin: http://localhost:3000", "-H", "Access-Control-Request-Method: GET"])
        XCTAssertTrue(preflight.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), preflight)
        let answer = try off.curl("/v1/items", ["-H", "Origin: http://localhost:3000"])
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), answer)
        XCTAssertFalse(answer.contains("Access-Control-"), answer)
        XCTAssertEqual(off.stop(), 130)

        let wrong = try CLIRunner.run(["serve", "--cors-origin", "localhost:3000/"], currentDirectory: folder.url)
        XCTAssertEqual(wrong.status, 64, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("--cors-origin 'localhost:3000/' is not an origin"), wrong.stderr)
    }

    // MARK: - Request checks

    func testAJSONBodyThatDoesNotParseIs400AndOneWithValuesAtFault422() throws {
        let folder = try folder()
        let server = try ServeProcess([], in: folder.url)
        let json = ["-H", "Content-Type: application/json", "--data-binary"]
        let malformed = try server.curl("/v1/items", json + [#"{"nottitle": 1"#])
        XCTAssertEqual(
            head(malformed),
            [
                "HTTP/1.1 400 Bad Request", "Content-Type: application/problem+json", "Content-Length: 171",
                "Access-Control-Allow-Origin: *", "Vary: Origin"
            ], malformed)
        XCTAssertEqual(
            body(malformed),
            #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"the body is not JSON: line 1, column 15: the input ends in the middle of a value","case":"shop.create"}"#
                + "\n")
        let atFault = try server.curl("/v1/items", json + [#"{"price": "x", "kind": "sofa", "note": null}"#])
        XCTAssertTrue(atFault.hasPrefix("HTTP/1.1 422 Unprocessable Entity\r\n"), atFault)
        XCTAssertTrue(atFault.contains("\r\nContent-Type: application/problem+json\r\n"), atFault)
        XCTAssertEqual(
            body(atFault),
            #"{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"3 values of the body are at fault","case":"shop.create","errors":["#
                + #"{"value":"title","pointer":"/title","detail":"missing required value 'title' (string)"},"#
                + #"{"value":"price","pointer":"/price","detail":"\"x\" is not a double for value 'price'"},"#
                + #"{"value":"kind","pointer":"/kind","detail":"'sofa' is not one of lamp, chair for value 'kind'"}]}"#
                + "\n")
        let notAnObject = try server.curl("/v1/items", json + ["[1, 2]"])
        XCTAssertTrue(notAnObject.hasPrefix("HTTP/1.1 422 "), notAnObject)
        XCTAssertTrue(body(notAnObject).contains(#""detail":"the body must be a JSON object""#), notAnObject)
        let good = try server.curl("/v1/items", json + [#"{"title": "Desk lamp", "price": 19, "kind": "lamp"}"#])
        XCTAssertTrue(good.hasPrefix("HTTP/1.1 201 Created\r\n"), good)
        XCTAssertEqual(body(good), #"{"title":"Desk lamp","kind":"lamp"}"#)
        server.waitFor("POST /v1/items shop.create 201 ")
        XCTAssertTrue(server.stderr.contains("POST /v1/items shop.create 400 "), server.stderr)
        XCTAssertTrue(server.stderr.contains("POST /v1/items shop.create 422 "), server.stderr)
        XCTAssertEqual(server.stop(), 130)
    }

    func testFormAndMultipartBodiesAreCheckedAlike() throws {
        let folder = try folder()
        let server = try ServeProcess([], in: folder.url)
        let form = try server.curl("/v1/signup", ["--data-binary", "age=old"])
        XCTAssertTrue(form.hasPrefix("HTTP/1.1 422 Unprocessable Entity\r\n"), form)
        XCTAssertEqual(
            body(form),
            #"{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"2 values of the body are at fault","case":"shop.signup","errors":["#
                + #"{"value":"email","field":"email","detail":"missing required value 'email' (string)"},"#
                + #"{"value":"age","field":"age","detail":"'old' is not an int for value 'age'"}]}"# + "\n")
        let brokenEscape = try server.curl("/v1/signup", ["--data-binary", "email=a%zz&age=3"])
        XCTAssertTrue(brokenEscape.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), brokenEscape)
        XCTAssertTrue(body(brokenEscape).contains(#""detail":"the form body's percent-escapes are broken""#))
        let goodForm = try server.curl("/v1/signup", ["--data-binary", "email=a%40b.example&age=3"])
        XCTAssertTrue(goodForm.hasSuffix(#"{"email":"a@b.example"}"#), goodForm)

        let multipart = try server.curl("/v1/upload", ["-F", "caption=Holiday", "-F", "count=many"])
        XCTAssertTrue(multipart.hasPrefix("HTTP/1.1 422 Unprocessable Entity\r\n"), multipart)
        XCTAssertEqual(
            body(multipart),
            #"{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"1 value of the body is at fault","case":"shop.upload","errors":["#
                + #"{"value":"count","field":"count","detail":"'many' is not an int for value 'count'"}]}"# + "\n")
        let noBoundary = try server.curl(
            "/v1/upload", ["-H", "Content-Type: multipart/form-data", "--data-binary", "caption=x"])
        XCTAssertTrue(noBoundary.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), noBoundary)
        let goodParts = try server.curl("/v1/upload", ["-F", "caption=Holiday", "-F", "count=2"])
        XCTAssertTrue(goodParts.hasPrefix("HTTP/1.1 201 Created\r\n"), goodParts)
        XCTAssertEqual(body(goodParts), #"{"caption":"Holiday"}"#)
        XCTAssertEqual(server.stop(), 130)
    }

    /// Without the checks, what the body lacks (or gets wrong) comes from the case's example.
    /// Bodies a clumsy or hostile client sends: each answered 400 or 422, the server going on.
    func testMalformedAndHostileBodiesAreAnsweredAndTheServerGoesOn() throws {
        let folder = try folder()
        let server = try ServeProcess([], in: folder.url)
        func post(_ path: String, contentType: String, _ body: String) throws -> String {
            let file = try folder.write("body-\(UUID().uuidString)", body)
            return try server.curl(path, ["-H", "Content-Type: \(contentType)", "--data-binary", "@\(file.path)"])
        }
        let boundary = "multipart/form-data; boundary=b0undary"
        let unclosed = try post(
            "/v1/upload", contentType: boundary,
            "--b0undary\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nx")
        XCTAssertTrue(unclosed.hasPrefix("HTTP/1.1 400 "), unclosed)
        let nameless = try post(
            "/v1/upload", contentType: boundary, "--b0undary\r\nContent-Type: text/plain\r\n\r\nx\r\n--b0undary--\r\n")
        XCTAssertTrue(nameless.hasPrefix("HTTP/1.1 400 "), nameless)
        let longBoundary = try post(
            "/v1/upload", contentType: "multipart/form-data; boundary=" + String(repeating: "b", count: 71), "x")
        XCTAssertTrue(longBoundary.hasPrefix("HTTP/1.1 400 "), longBoundary)
        let quoted = try post(
            "/v1/upload", contentType: "multipart/form-data; boundary=\"q b\"",
            "--q b\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nHi\r\n"
                + "--q b\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n4\r\n--q b--\r\n")
        XCTAssertTrue(quoted.hasPrefix("HTTP/1.1 201 "), quoted)
        let deep = try post(
            "/v1/items", contentType: "application/json",
            String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        XCTAssertTrue(deep.hasPrefix("HTTP/1.1 400 "), deep)
        let huge = try post(
            "/v1/signup", contentType: "application/x-www-form-urlencoded", "email=a&age=99999999999999999999999")
        XCTAssertTrue(huge.hasPrefix("HTTP/1.1 422 "), huge)
        let escaped = try post(
            "/v1/items", contentType: "application/json", #"{"title": "\u001b[31m", "price": 1, "kind": "\u001b"}"#)
        XCTAssertTrue(escaped.hasPrefix("HTTP/1.1 422 "), escaped)
        server.waitFor("POST /v1/items shop.create 422 ")
        XCTAssertFalse(server.stderr.contains("\u{1B}"), "no terminal escape reaches the log")
        XCTAssertTrue(try server.curl("/v1/items").hasPrefix("HTTP/1.1 200 OK\r\n"))
        XCTAssertEqual(server.stop(), 130)
    }

    func testNoValidateAnswersTheSampleWhateverTheBody() throws {
        let folder = try folder()
        let server = try ServeProcess(["--no-validate"], in: folder.url)
        let malformed = try server.curl(
            "/v1/items", ["-H", "Content-Type: application/json", "--data-binary", #"{"nottitle": 1"#])
        XCTAssertTrue(malformed.hasPrefix("HTTP/1.1 201 Created\r\n"), malformed)
        XCTAssertEqual(body(malformed), #"{"title":"Floor lamp","kind":"lamp"}"#)
        let wrongKind = try server.curl(
            "/v1/items",
            ["-H", "Content-Type: application/json", "--data-binary", #"{"title": "Sofa", "kind": "sofa"}"#])
        XCTAssertEqual(body(wrongKind), #"{"title":"Sofa","kind":"lamp"}"#)
        let form = try server.curl("/v1/signup", ["--data-binary", "age=old"])
        XCTAssertTrue(form.hasPrefix("HTTP/1.1 201 Created\r\n"), form)
        XCTAssertEqual(body(form), #"{"email":"ex@shop.example"}"#)
        XCTAssertEqual(server.stop(), 130)
    }

    // MARK: - Credentials

    func testACaseWithAuthIs401NamingItsSchemeUntilACredentialOfThatKindComes() throws {
        let folder = try folder()
        let server = try ServeProcess([], in: folder.url)
        let none = try server.curl("/v1/me", ["-H", "Origin: http://localhost:3000"])
        XCTAssertEqual(
            head(none),
            [
                "HTTP/1.1 401 Unauthorized", "Content-Type: application/problem+json",
                #"WWW-Authenticate: Bearer realm="shop""#,
                "Content-Length: 149", "Access-Control-Allow-Origin: http://localhost:3000",
                "Access-Control-Allow-Credentials: true", "Vary: Origin",
                "Access-Control-Expose-Headers: WWW-Authenticate"
            ], none)
        XCTAssertEqual(
            body(none),
            #"{"type":"about:blank","title":"Unauthorized","status":401,"detail":"shop.me needs a Bearer credential in the Authorization header","case":"shop.me"}"#
                + "\n")
        let otherScheme = try server.curl("/v1/me", ["-H", "Authorization: Basic dTpw"])
        XCTAssertTrue(otherScheme.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"), otherScheme)
        let anyToken = try server.curl("/v1/me", ["-H", "Authorization: Bearer anything-at-all"])
        XCTAssertTrue(anyToken.hasPrefix("HTTP/1.1 200 OK\r\n"), anyToken)
        XCTAssertEqual(body(anyToken), #"{"name":"me"}"#)
        let open = try server.curl("/v1/items")
        XCTAssertTrue(open.hasPrefix("HTTP/1.1 200 OK\r\n"), "auth: none asks for nothing: \(open)")
        XCTAssertEqual(server.stop(), 130)

        let noAuth = try ServeProcess(["--no-auth"], in: folder.url)
        let answered = try noAuth.curl("/v1/me")
        XCTAssertTrue(answered.hasPrefix("HTTP/1.1 200 OK\r\n"), answered)
        XCTAssertEqual(noAuth.stop(), 130)
    }

    // MARK: - The log

    /// Many clients at once, the log read from a pipe as it comes: every request's line comes
    /// while the server runs on with no more traffic, none missing, none held until exit or until
    /// more lines fill a buffer. How soon (the log's 20 ms batches) is for `make bench`: a time
    /// asserted here would flake on a shared machine.
    func testEveryLogLineComesPromptlyUnderManyConcurrentClients() throws {
        let folder = try folder()
        let server = try ServeProcess([], in: folder.url)
        let clients = 24
        let perClient = 20
        let answered = AnswerTimes()
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            guard let connection = try? LoopbackClient(port: port) else { return }
            for index in 0..<perClient {
                let path = "/v1/items/\(client * 1000 + index)"
                guard connection.get(path) else { return }
                answered.record(path, Date())
            }
        }
        let times = answered.all
        XCTAssertEqual(times.count, clients * perClient)
        for (path, _) in times {
            let line = "GET \(path) shop.item 200 "
            server.waitFor(line)
            XCTAssertNotNil(server.arrival(of: line), "no log line for \(path) while the server ran")
        }
        XCTAssertEqual(server.stop(), 130)
    }

    /// A log nobody reads (a full pipe, a paused pager) holds no answer back: the server answers
    /// every request, and the lines come when the log is read again.
    func testALogNobodyReadsDoesNotStallTheServer() throws {
        let folder = try folder()
        let process = Process()
        process.executableURL = CLIRunner.binaryURL
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = folder.url
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path]
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // Only the first line is read; the rest stays in the pipe until the end.
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let byte = log.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            first += byte
        }
        let port = try XCTUnwrap(
            Int(String(decoding: first, as: UTF8.self).split(separator: ":").last?.dropLast() ?? ""))
        let requests = 4000  // about 160 KiB of log (40 bytes a line): more than a pipe holds (64 KiB)
        let connection = try LoopbackClient(port: port, timeout: 5)
        var answers = 0
        for index in 0..<requests {
            guard connection.get("/v1/items/\(index)") else { break }
            answers += 1
        }
        XCTAssertEqual(answers, requests, "answers stopped while the log pipe was full")
        kill(process.processIdentifier, SIGINT)
        let rest = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let lines = rest.split(separator: "\n").filter { $0.hasPrefix("GET /v1/items/") }
        XCTAssertEqual(lines.count, requests, "every line written once the log is read")
        XCTAssertTrue(lines.last?.hasPrefix("GET /v1/items/\(requests - 1) shop.item 200 ") ?? false, "in order")
    }

    // MARK: - A real browser

    /// A page on one loopback origin (a second `serve` answering an HTML sample) whose script GETs
    /// with credentials and POSTs JSON (a preflighted request) to the mock on another port, and
    /// writes both answers, and an exposed header, into the page.
    func testAPageOnAnotherOriginCallsTheMockInHeadlessChromium() throws {
        _ = try HeadlessBrowser.executable()
        let folder = try folder()
        let mock = try ServeProcess([], in: folder.url)
        let pageFolder = try self.folder([
            "page.yaml": """
            api: page
            baseURL: http://page.invalid
            cases:
              index:
                path: /
                sample:
                  headers: {Content-Type: text/html}
                  text: |
                    <!doctype html><html><body><p id="get">pending</p><p id="post">pending</p>
                    <script>
                    const mock = "http://127.0.0.1:\(mock.port)/v1";
                    const show = (id) => (answer) => answer.text().then((text) => {
                      document.getElementById(id).textContent =
                        id + ": " + answer.status + " " + (answer.headers.get("X-Total-Count") || "-") + " " + text;
                    });
                    const fail = (id) => (error) => { document.getElementById(id).textContent = id + " failed: " + error; };
                    fetch(mock + "/items", {credentials: "include"}).then(show("get")).catch(fail("get"));
                    fetch(mock + "/items", {method: "POST", headers: {"Content-Type": "application/json"},
                      body: JSON.stringify({title: "Desk lamp", price: 19.5, kind: "lamp"})}).then(show("post")).catch(fail("post"));
                    </script></body></html>
            """
        ])
        let page = try ServeProcess([], in: pageFolder.url)
        let dom = try HeadlessBrowser.dumpDOM(try XCTUnwrap(URL(string: "http://127.0.0.1:\(page.port)/")))
        XCTAssertTrue(dom.contains(#"<p id="get">get: 200 2 [{"id":1},{"id":2}]</p>"#), dom)
        XCTAssertTrue(dom.contains(#"<p id="post">post: 201 - {"title":"Desk lamp","kind":"lamp"}</p>"#), dom)
        mock.waitFor("POST /v1/items shop.create 201 ")
        XCTAssertTrue(mock.stderr.contains("OPTIONS /v1/items - 204 (preflight) "), mock.stderr)
        XCTAssertEqual(mock.stop(), 130)
        XCTAssertEqual(page.stop(), 130)
    }
}

/// When each answer was read, by path, from many threads.
private final class AnswerTimes: Sendable {
    private let times = Mutex<[(String, Date)]>([])
    func record(_ path: String, _ time: Date) { times.withLock { $0.append((path, time)) } }
    var all: [(String, Date)] { times.withLock { $0 } }
}

/// A keep-alive HTTP/1.1 client on a loopback socket, reading each answer by its Content-Length;
/// every read and write bounded by `timeout`.
final class LoopbackClient {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(port: Int, timeout: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var bound = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    /// Sends `GET path` and reads its whole answer; `false` when the connection fails or times out.
    func get(_ path: String) -> Bool {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            if let end = headEnd() {
                let head = String(decoding: pending[..<end], as: UTF8.self).lowercased()
                let length =
                    head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if pending.count >= end + 4 + length {
                    pending.removeFirst(end + 4 + length)
                    return true
                }
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            pending += buffer[0..<count]
        }
    }

    /// Sends `text` as it is.
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            == bytes.count
    }

    /// What the server sent from now until the received text holds `text` (`nil` when the
    /// connection ends or the read times out first).
    func read(until text: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while !String(decoding: pending, as: UTF8.self).contains(text) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            pending += buffer[0..<count]
        }
        defer { pending = [] }
        return String(decoding: pending, as: UTF8.self)
    }

    private func headEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for index in 0...(pending.count - 4)
        where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13 && pending[index + 3] == 10 {
            return index
        }
        return nil
    }
}
