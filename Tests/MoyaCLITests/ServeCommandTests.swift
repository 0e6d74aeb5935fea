import CLITestSupport
import Foundation
import XCTest

/// `moya-cli serve` run as a user runs it: started on a free port, asked with real curl, stopped
/// with Ctrl-C or SIGTERM.
final class ServeCommandTests: XCTestCase {
    private let shop = """
        api: shop
        baseURL: https://shop.example/v1
        cases:
          item:
            values: [{id: int}]
            path: /items/{id}
            samples:
              ok: {json: {id: "{id}", name: Lamp}}
              gone: {status: 410, text: "item {id} is gone"}
        """

    private func folder(_ files: [String: String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (name, text) in files { try folder.write("targets/\(name)", text) }
        return folder
    }

    func testServesASampleToCurlLogsTheRequestAndStopsOnCtrlCLeavingNoSocket() throws {
        let folder = try folder(["shop.yaml": shop])
        let server = try ServeProcess([], in: folder.url)
        XCTAssertEqual(server.stderr, "serving shop on http://127.0.0.1:\(server.port)\n")
        let answer = try server.curl("/v1/items/7")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), answer)
        XCTAssertTrue(answer.hasSuffix("\r\n\r\n{\"id\":7,\"name\":\"Lamp\"}"), answer)
        let gone = try server.curl("/v1/items/7", ["-H", "Prefer: example=gone"])
        XCTAssertTrue(gone.hasPrefix("HTTP/1.1 410 Gone\r\n"), gone)
        XCTAssertTrue(gone.hasSuffix("\r\n\r\nitem 7 is gone"), gone)
        server.waitFor("shop.item 410")
        let port = server.port
        XCTAssertEqual(server.stop(), 130)
        let lines = server.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, server.stderr)
        XCTAssertTrue(lines[1].hasPrefix("GET /v1/items/7 shop.item 200 "), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("GET /v1/items/7 shop.item 410 "), lines[2])
        XCTAssertEqual(lines[3], "moya-cli: error: interrupted")
        XCTAssertTrue(ServeProcess.canBind(port: port), "the port is free again")
    }

    /// Issue 45: a sample's Set-Cookie is answered as written, and a client keeps it.
    func testASamplesSetCookieIsAnsweredAsWritten() throws {
        let folder = try folder([
            "site.yaml": """
            api: site
            baseURL: https://site.example
            cases:
              login:
                path: /login
                sample: {headers: {Set-Cookie: "session=s4mple; Path=/; HttpOnly; SameSite=Lax"}, json: {ok: true}}
            """
        ])
        let server = try ServeProcess([], in: folder.url)
        let answer = try server.curl("/login")
        XCTAssertTrue(answer.contains("\r\nSet-Cookie: session=s4mple; Path=/; HttpOnly; SameSite=Lax\r\n"), answer)
        XCTAssertEqual(server.stop(), 130)
    }

    func testCurlHeadGetsTheGETHeadersWithTheGETLengthAndNoBody() throws {
        let folder = try folder(["shop.yaml": shop])
        let server = try ServeProcess([], in: folder.url)
        let head = try server.curl("/v1/items/7", ["-I"])
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), head)
        XCTAssertTrue(head.contains("\r\nContent-Type: application/json\r\n"), head)
        XCTAssertTrue(head.contains("\r\nContent-Length: \(#"{"id":7,"name":"Lamp"}"#.utf8.count)\r\n"), head)
        XCTAssertTrue(head.hasSuffix("\r\n\r\n"), head)
        server.waitFor("HEAD /v1/items/7 shop.item 200 ")
        let gone = try server.curl("/v1/items/7", ["-I", "-H", "Prefer: example=gone"])
        XCTAssertTrue(gone.hasPrefix("HTTP/1.1 410 Gone\r\n"), gone)
        XCTAssertTrue(gone.contains("\r\nContent-Length: \("item 7 is gone".utf8.count)\r\n"), gone)
        XCTAssertEqual(server.stop(), 130)
    }

    func testSIGTERMEnds143() throws {
        let folder = try folder(["shop.yaml": shop])
        let server = try ServeProcess(["shop"], in: folder.url)
        XCTAssertNotEqual(server.port, 0, server.stderr)
        XCTAssertEqual(server.stop(signal: SIGTERM), 143)
        XCTAssertTrue(server.stderr.hasSuffix("moya-cli: error: terminated (SIGTERM)\n"), server.stderr)
    }

    func testWrongValuesAre400AndUnknownRoutes404WithSuggestions() throws {
        let folder = try folder(["shop.yaml": shop])
        let server = try ServeProcess([], in: folder.url)
        let wrong = try server.curl("/v1/items/seven")
        XCTAssertTrue(wrong.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), wrong)
        XCTAssertTrue(
            wrong.hasSuffix(
                #"{"error":"invalid value","value":"id","reason":"'seven' is not an int for value 'id'","case":"shop.item"}"#
                    + "\n"), wrong)
        let unknown = try server.curl("/v1/item/7")
        XCTAssertTrue(unknown.hasPrefix("HTTP/1.1 404 Not Found\r\n"), unknown)
        XCTAssertTrue(
            unknown.hasSuffix(
                #"{"error":"no case answers GET /v1/item/7","closest":["GET /v1/items/{id} (shop.item)"]}"# + "\n"),
            unknown)
        _ = server.stop()
    }

    func testAPortInUseExits74() throws {
        let folder = try folder(["shop.yaml": shop])
        let first = try ServeProcess([], in: folder.url)
        let result = try CLIRunner.run(
            ["serve", "--port", String(first.port)], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 74)
        XCTAssertEqual(
            result.stderr,
            "moya-cli: error: cannot listen on 127.0.0.1:\(first.port): the address is in use "
                + "(another server listens on this port)\n")
        _ = first.stop()
    }

    func testTwoAPIsOnOneRouteExit65NamingBothCases() throws {
        let other = shop.replacingOccurrences(of: "api: shop", with: "api: store")
        let folder = try folder(["shop.yaml": shop, "store.yaml": other])
        let result = try CLIRunner.run(["serve", "--port", "0"], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(
            result.stderr,
            "moya-cli: error: targets/store.yaml: case 'store.item' answers GET /v1/items/{id}, as 'shop.item' does; "
                + "cases of two APIs must differ in method or path (give one API a base URL path prefix, or serve them apart)\n"
        )
    }

    func testAnUnknownSampleOrAPIExits64() throws {
        let folder = try folder(["shop.yaml": shop])
        let sample = try CLIRunner.run(["serve", "--port", "0", "--sample", "nope"], currentDirectory: folder.url)
        XCTAssertEqual(sample.status, 64)
        XCTAssertEqual(sample.stderr, "moya-cli: error: no served case has a sample named 'nope'; samples: ok, gone\n")
        let api = try CLIRunner.run(["serve", "--port", "0", "shp"], currentDirectory: folder.url)
        XCTAssertEqual(api.status, 64)
        XCTAssertTrue(api.stderr.hasPrefix("moya-cli: error: "), api.stderr)
        XCTAssertTrue(api.stderr.contains("'shp'"), api.stderr)
    }
}
