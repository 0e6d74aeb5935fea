import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// Issue 39: what real Postman collections and browser captures hold (../shared/corpus imports-1
/// and imports-2), in two small fixtures of Tests/Fixtures/imports: each imports, validates and
/// passes its own offline `check` with no variable set, and what a browser adds is not the API's.
final class ImportRealInputTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    static let fixtures = CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/imports")
    static let capture = fixtures.appendingPathComponent("browser-capture.har")
    static let collection = fixtures.appendingPathComponent("multiline-collection.json")

    private func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, currentDirectory: folder.url)
    }

    private func written(_ path: String) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent(path), encoding: .utf8)
    }

    /// A Postman description in Markdown over several lines (and CRLF ones) is its first
    /// paragraph on one line, as `import openapi` writes one; no longer exit 70.
    func testMultiLineDescriptionsBecomeTheirFirstParagraphOnOneLine() throws {
        let imported = try run(["import", "postman", Self.collection.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try written("targets/notes-api.yaml")
        XCTAssertTrue(
            file.contains(#"    description: "Lists the notes of the signed-in user, newest first."\#n"#), file)
        XCTAssertTrue(file.contains("    description: Gets one note.\n"), file)
        XCTAssertFalse(file.contains("Paging") || file.contains("second paragraph"), file)
        XCTAssertEqual(try run(["validate", "targets/notes-api.yaml"]).status, 0)
    }

    /// Offline, with no variable set: an undefined `{{baseUrl}}` falls back to localhost, a
    /// `{{token}}` header and a capture's cookie to empty, and a credential value gets an example,
    /// so every case is checked (none "not-covered").
    func testImportedFilesPassTheirOwnOfflineCheckWithNoVariableSet() throws {
        XCTAssertEqual(try run(["import", "postman", Self.collection.path]).status, 0)
        XCTAssertEqual(try run(["import", "har", Self.capture.path]).status, 0)
        let postman = try written("targets/notes-api.yaml")
        XCTAssertTrue(postman.contains(#"baseURL: "${baseUrl:-http://localhost}""#), postman)
        XCTAssertTrue(postman.contains(#"Authorization: "Token ${secret:token:-}""#), postman)
        XCTAssertTrue(postman.contains(#"    examples: [["7", example]]"#), postman)
        let har = try written("targets/shop-example.yaml")
        XCTAssertTrue(har.contains(#"Cookie: "${secret:MOYA_SHOP_EXAMPLE_COOKIE:-}""#), har)
        XCTAssertFalse(har.contains("c00kie-s3cret"), har)
        let checked = try run(["check", "notes-api", "shop-example"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertTrue(checked.stderr.contains("check (offline): 5 passed, 0 failed"), checked.stderr)
        XCTAssertFalse(checked.stdout.contains("not-covered"), checked.stdout)
    }

    /// An error example (Postman's only saved 401, a HAR's 304 from the browser's cache) is a named
    /// sample after a success; a success recorded later for the same case is the default.
    func testTheDefaultSampleIsASuccessAndErrorsAreNamedSamples() throws {
        let postman = try run(["import", "postman", Self.collection.path])
        XCTAssertTrue(
            postman.stderr.contains(
                "import: listNotes: every saved example is an error: the default sample is an empty 200, the examples are named samples"
            ), postman.stderr)
        let file = try written("targets/notes-api.yaml")
        XCTAssertTrue(
            file.contains(
                """
                    samples:
                      ok: {status: 200}
                      unauthorized: {status: 401, headers: {Content-Type: application/json}, json: {error: no token}}
                """), file)
        XCTAssertTrue(
            file.contains(
                """
                    samples:
                      found: {headers: {Content-Type: application/json}, json: {id: 7, title: hello}}
                      missing: {status: 404,
                """), "the success first, though saved second:\n\(file)")

        let har = try run(["import", "har", Self.capture.path])
        XCTAssertTrue(
            har.stderr.contains(
                "import: getRoot: the capture holds only a 304 (the browser's cache): the default sample is a 200 with its body"
            ), har.stderr)
        let capture = try written("targets/shop-example.yaml")
        XCTAssertTrue(
            capture.contains(
                """
                    samples:
                      ok: {headers: {Content-Type: text/html}, text: "<p>cached home</p>"}
                      notModified: {status: 304}
                """), capture)
        XCTAssertTrue(
            capture.contains(
                """
                    samples:
                      ok: {headers: {Content-Type: application/json}, json: {id: 124, name: lamp}}
                      notModified: {status: 304}
                """), "/items/124's 200 over /items/123's 304:\n\(capture)")
        let stubbed = try run(["call", "shop-example", "getRoot", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, "<p>cached home</p>")
    }

    /// The browser's headers are not sent (a conditional one would make every live call a 304),
    /// and `/items/123` and `/items/124` are one case taking the number, its example the one
    /// whose answer is the default sample (124: 123 was a 304).
    func testBrowserHeadersAreLeftOutAndNumberedPathsAreOneCaseWithAValue() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let bytes = try Data(contentsOf: Self.capture)
        let local = String(decoding: bytes, as: UTF8.self).replacing("https://shop.example", with: base)
        try folder.write("capture.har", local)
        let imported = try run(["import", "har", "capture.har", "--api", "shop"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(
            imported.stderr.hasPrefix(
                "import: wrote targets/shop.yaml: API 'shop' (\(base)), 3 cases; 1 repeated request left out\n"),
            imported.stderr)
        let file = try written("targets/shop.yaml")
        XCTAssertTrue(
            file.contains(
                """
                  getAnythingItemsId:
                    values: [{id: int}]
                    method: GET
                    path: "/anything/items/{id}"
                """), file)
        XCTAssertTrue(file.contains("    examples: [[124]]\n"), "the number whose answer is the default:\n\(file)")
        for browserOnly in [
            "If-None-Match", "If-Modified-Since", "Sec-", "Upgrade-Insecure-Requests", "Alt-Used", "Cache-Control"
        ] {
            XCTAssertFalse(file.contains(browserOnly), "\(browserOnly):\n\(file)")
        }
        let called = try run(["call", "shop", "getAnythingItemsId", "125"])
        XCTAssertEqual(called.status, 0, called.stderr)
        let received = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(received.path, "/anything/items/125")
        XCTAssertEqual(received.value(of: "X-Requested-With"), "XMLHttpRequest")
        XCTAssertEqual(received.value(of: "Accept"), "application/json")
        for browserOnly in [
            "If-None-Match", "If-Modified-Since", "Sec-Fetch-Mode", "Upgrade-Insecure-Requests", "Alt-Used"
        ] {
            XCTAssertNil(received.value(of: browserOnly), browserOnly)
        }
    }

    /// Fiddler (and Windows editors) write a UTF-8 byte order mark first: every import reader
    /// takes the same input, not only `import openapi`.
    func testAByteOrderMarkIsReadByEveryImporter() throws {
        let mark = Data([0xEF, 0xBB, 0xBF])
        XCTAssertTrue(try Data(contentsOf: Self.capture).starts(with: mark), "the fixture starts with one")
        let har = try run(["import", "har", Self.capture.path, "-o", "har.yaml"])
        XCTAssertEqual(har.status, 0, har.stderr)
        try (mark + Data(contentsOf: Self.collection)).write(to: folder.url.appendingPathComponent("bom.json"))
        let postman = try run(["import", "postman", "bom.json", "-o", "postman.yaml"])
        XCTAssertEqual(postman.status, 0, postman.stderr)
        let petstore = CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi/petstore.yaml")
        try (mark + Data(contentsOf: petstore)).write(to: folder.url.appendingPathComponent("bom.yaml"))
        let openapi = try run(["import", "openapi", "bom.yaml", "-o", "openapi.yaml"])
        XCTAssertEqual(openapi.status, 0, openapi.stderr)
        let fromStandardInput = try CLIRunner.run(
            ["import", "postman", "-", "-o", "-"], currentDirectory: folder.url,
            stdin: mark + Data(contentsOf: Self.collection))
        XCTAssertEqual(fromStandardInput.status, 0, fromStandardInput.stderr)
        // Still refused when what follows is not JSON, with the place after the mark.
        try (mark + Data("{\"log\": ".utf8)).write(to: folder.url.appendingPathComponent("cut.har"))
        let cut = try run(["import", "har", "cut.har"])
        XCTAssertEqual(cut.status, 65)
        XCTAssertTrue(cut.stderr.hasPrefix("moya-cli: error: cut.har:1:"), cut.stderr)
    }

    /// The header names the input's file, not where it lies; an empty GET body (Postman's editor
    /// leaves many) is not worth a note, nor a Content-Type.
    func testTheHeaderNamesTheFileAndAnEmptyGETBodyIsNotNoted() throws {
        let postman = try run(["import", "postman", Self.collection.path])
        XCTAssertFalse(postman.stderr.contains("body is left out"), postman.stderr)
        let file = try written("targets/notes-api.yaml")
        XCTAssertTrue(
            file.hasPrefix(
                "# Made by moya-cli import postman from multiline-collection.json; see moya-cli-import(1).\n"), file)
        XCTAssertFalse(file.contains(Self.fixtures.path), file)
        XCTAssertFalse(file.contains("text/plain"), "a GET sends no body, so no Content-Type:\n\(file)")
        _ = try run(["import", "har", Self.capture.path])
        let har = try written("targets/shop-example.yaml")
        XCTAssertTrue(
            har.hasPrefix("# Made by moya-cli import har from browser-capture.har; see moya-cli-import(1).\n"), har)
    }

    /// A page of HTML (the capture's 9 KB catalog) goes to a sample file beside the target file,
    /// through the gate, as `--record` writes one; `--stub` answers it byte for byte.
    func testALargeTextBodyGoesToASampleFile() throws {
        let imported = try run(["import", "har", Self.capture.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try written("targets/shop-example.yaml")
        XCTAssertTrue(
            file.contains(
                "    sample: {headers: {Content-Type: text/html}, file: samples/shop-example/getCatalog.html}\n"), file)
        XCTAssertFalse(file.contains("Item 100"), file)
        let page = try written("targets/samples/shop-example/getCatalog.html")
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>\n<html>\n"), page)
        XCTAssertGreaterThan(page.utf8.count, 8 * 1024)
        let stubbed = try run(["call", "shop-example", "getCatalog", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, page)
        // The sample file is one the gate refuses to replace: a second import without --force
        // stops before writing anything.
        let again = try run(["import", "har", Self.capture.path])
        XCTAssertEqual(again.status, 64, again.stderr)
    }
}
