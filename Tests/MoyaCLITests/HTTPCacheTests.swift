import CLITestSupport
import Foundation
import TestServers
import XCTest

/// The opt-in HTTP cache (issue 46): fresh answers served without a request, stale ones
/// revalidated, nothing private or credentialed kept, `--no-cache`, hostile cache files; and
/// curl's `--etag-save`/`--etag-compare`, with a 304 the request asked for exiting 0.
final class HTTPCacheTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        let target = try folder.write(
            "targets/cached.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            cache: true
            cases:
              fresh: {path: /etag/v1, task: {parameters: {cache-control: "max-age=600"}, encoding: url}, sample: ok}
              stale: {path: /etag/v2, task: {parameters: {cache-control: "no-cache"}, encoding: url}, sample: ok}
              mine: {path: /etag/v3, task: {parameters: {cache-control: "private, max-age=600"}, encoding: url}, sample: ok}
              never: {path: /etag/v4, cache: false, task: {parameters: {cache-control: "max-age=600"}, encoding: url}, sample: ok}
            """)
        chmod(target.path, 0o644)
        let secured = try folder.write(
            "targets/secured.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            cache: true
            auth: {type: bearer, token: "${TOKEN}"}
            cases:
              own: {path: /etag/s1, task: {parameters: {cache-control: "max-age=600"}, encoding: url}, sample: ok}
              shared: {path: /etag/s2, task: {parameters: {cache-control: "public, max-age=600"}, encoding: url}, sample: ok}
            """)
        chmod(secured.path, 0o644)
    }

    override func tearDown() {
        server.stop()
    }

    var cacheFolder: URL { folder.url.appendingPathComponent("cache/moya") }
    var environment: [String: String] {
        ["XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path, "TOKEN": "secret-token-1234"]
    }

    func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: environment, currentDirectory: folder.url)
    }

    func storedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder.path)) ?? []).filter {
            $0.hasSuffix(".response")
        }
    }

    func testAFreshAnswerIsServedWithoutARequest() throws {
        let first = try run(["call", "cached", "fresh", "--format", "json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains(#""cache":"miss""#), first.stdout)
        XCTAssertEqual(server.receivedRequests.count, 1)
        // Stored privately.
        let files = storedFiles()
        XCTAssertEqual(files.count, 1)
        let folderMode = try FileManager.default.attributesOfItem(atPath: cacheFolder.path)[.posixPermissions] as? Int
        XCTAssertEqual(folderMode, 0o700)
        let fileMode =
            try FileManager.default.attributesOfItem(atPath: cacheFolder.appendingPathComponent(files[0]).path)[
                .posixPermissions] as? Int
        XCTAssertEqual(fileMode, 0o600)

        let second = try run(["call", "cached", "fresh", "-v"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, #"{"etag":"v1"}"#)
        XCTAssertTrue(second.stderr.contains("* from cache (age "), second.stderr)
        let third = try run(["call", "cached", "fresh", "--format", "json"])
        XCTAssertTrue(third.stdout.contains(#""cache":"hit""#), third.stdout)
        XCTAssertTrue(third.stdout.contains(#""body":{"etag":"v1"}"#), third.stdout)
        XCTAssertEqual(server.receivedRequests.count, 1, "served from the cache: no request")

        // --no-cache asks the server, and a case's `cache: false` is not cached.
        XCTAssertEqual(try run(["call", "cached", "fresh", "--no-cache"]).stdout, #"{"etag":"v1"}"#)
        XCTAssertEqual(server.receivedRequests.count, 2)
        _ = try run(["call", "cached", "never"])
        _ = try run(["call", "cached", "never"])
        XCTAssertEqual(server.receivedRequests.count, 4)
        // --cache caches it anyway: the command line wins.
        _ = try run(["call", "cached", "never", "--cache"])
        _ = try run(["call", "cached", "never", "--cache"])
        XCTAssertEqual(server.receivedRequests.count, 5)
    }

    /// An answer that varies is kept per variant (RFC 9111 §4.1): each `Accept` gets its own
    /// answer from the cache, and an unsafe request's success removes them all.
    func testEachVariantIsKeptAndAnUnsafeRequestRemovesThemAll() throws {
        let target = try folder.write(
            "targets/varied.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            cache: true
            cases:
              get: {path: /etag/w1, task: {parameters: {cache-control: "max-age=600", vary: Accept}, encoding: url}, sample: ok}
              change: {method: POST, path: /etag/w1, task: {parameters: {cache-control: "max-age=600", vary: Accept}, encoding: url, destination: queryString}, sample: ok}
            """)
        chmod(target.path, 0o644)
        func get(_ accept: String) throws -> CLIResult {
            let result = try run(["call", "varied", "get", "-H", "Accept: \(accept)", "--format", "json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains(#""accept":"\#(accept)""#), result.stdout)
            return result
        }
        XCTAssertTrue(try get("text/csv").stdout.contains(#""cache":"miss""#))
        XCTAssertTrue(try get("application/json").stdout.contains(#""cache":"miss""#))
        XCTAssertEqual(server.receivedRequests.count, 2)
        for accept in ["text/csv", "application/json", "text/csv"] {
            XCTAssertTrue(try get(accept).stdout.contains(#""cache":"hit""#), accept)
        }
        XCTAssertEqual(server.receivedRequests.count, 2, "both variants from the cache")
        XCTAssertEqual(storedFiles().count, 3, "the URL's file and one per variant")

        XCTAssertEqual(try run(["call", "varied", "change"]).status, 0)
        XCTAssertEqual(storedFiles(), [], "the POST's success removed every variant")
        XCTAssertTrue(try get("application/json").stdout.contains(#""cache":"miss""#))
        XCTAssertTrue(
            try get("text/csv").stdout.contains(#""cache":"miss""#), "an invalidated variant is not found again")
        XCTAssertEqual(server.receivedRequests.count, 5)
    }

    /// `check --live` goes through the same cache: a second run asks only for what is stale.
    func testCheckUsesTheCache() throws {
        let first = try run(["check", "cached", "--live", "--jobs", "4"])
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        XCTAssertEqual(server.receivedRequests.count, 4)
        let second = try run(["check", "cached", "--live", "--jobs", "4"])
        XCTAssertEqual(second.status, 0, second.stdout + second.stderr)
        // fresh: a hit; stale: revalidated (304); mine (private) and never (cache: false): sent again.
        let again = server.receivedRequests.dropFirst(4)
        XCTAssertEqual(again.count, 3, "\(again.map(\.target))")
        XCTAssertFalse(again.contains { $0.path == "/etag/v1" })
        XCTAssertEqual(again.first { $0.path == "/etag/v2" }?.value(of: "If-None-Match"), "\"v2\"")
    }

    func testAStaleAnswerIsRevalidatedAndA304IsTheStoredBody() throws {
        XCTAssertEqual(try run(["call", "cached", "stale"]).status, 0)
        let second = try run(["call", "cached", "stale", "-v"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, #"{"etag":"v2"}"#)
        XCTAssertTrue(second.stderr.contains("* revalidated"), second.stderr)
        let requests = server.receivedRequests
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests[1].value(of: "If-None-Match"), "\"v2\"")
        XCTAssertEqual(requests[1].value(of: "If-Modified-Since"), "Sat, 01 Jan 2000 00:00:00 GMT")
        let third = try run(["call", "cached", "stale", "--format", "json"])
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertTrue(third.stdout.contains(#""status":200"#), third.stdout)
        XCTAssertTrue(third.stdout.contains(#""cache":"revalidated""#), third.stdout)
    }

    func testNothingPrivateOrCredentialedIsKept() throws {
        for _ in 0..<2 { XCTAssertEqual(try run(["call", "cached", "mine"]).status, 0) }
        XCTAssertEqual(server.receivedRequests.count, 2)
        for _ in 0..<2 { XCTAssertEqual(try run(["call", "secured", "own"]).status, 0) }
        XCTAssertEqual(server.receivedRequests.count, 4)
        XCTAssertTrue(storedFiles().isEmpty)
        // `public` allows it.
        for _ in 0..<2 { XCTAssertEqual(try run(["call", "secured", "shared"]).status, 0) }
        XCTAssertEqual(server.receivedRequests.count, 5)
        XCTAssertEqual(storedFiles().count, 1)
        // No file holds the token.
        for file in storedFiles() {
            let text = try String(contentsOf: cacheFolder.appendingPathComponent(file), encoding: .utf8)
            XCTAssertFalse(text.contains("secret-token-1234"))
        }
    }

    /// A cache folder that is a symbolic link is not used (nothing is written where it points);
    /// a cut entry is not believed, and is replaced.
    func testHostileCacheFilesAreNotBelieved() throws {
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: cacheFolder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: cacheFolder, withDestinationURL: elsewhere)
        let linked = try run(["call", "cached", "fresh"])
        XCTAssertEqual(linked.status, 0, linked.stderr)
        XCTAssertEqual(linked.stdout, #"{"etag":"v1"}"#)
        XCTAssertTrue(linked.stderr.contains("not using the HTTP cache in"), linked.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        try FileManager.default.removeItem(at: cacheFolder)

        XCTAssertEqual(try run(["call", "cached", "fresh"]).status, 0)
        let entry = cacheFolder.appendingPathComponent(try XCTUnwrap(storedFiles().first))
        let whole = try Data(contentsOf: entry)
        try whole.dropLast(3).write(to: entry)
        let cut = try run(["call", "cached", "fresh"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        XCTAssertEqual(cut.stdout, #"{"etag":"v1"}"#)
        XCTAssertTrue(cut.stderr.contains("it is not a whole entry"), cut.stderr)
        XCTAssertEqual(server.receivedRequests.count, 3)
        // Replaced by the new answer: the next call is a hit again.
        XCTAssertEqual(try run(["call", "cached", "fresh"]).stdout, #"{"etag":"v1"}"#)
        XCTAssertEqual(server.receivedRequests.count, 3)
        // An entry another process could read is not believed either.
        chmod(entry.path, 0o644)
        XCTAssertEqual(try run(["call", "cached", "fresh"]).status, 0)
        XCTAssertEqual(server.receivedRequests.count, 4)
        // Nor a symbolic link planted in its place (to a whole entry elsewhere): the link is
        // replaced by a file, and what it pointed to is left alone.
        let planted = folder.url.appendingPathComponent("planted.response")
        let plantedBytes = try Data(contentsOf: entry)
        try FileManager.default.moveItem(at: entry, to: planted)
        try FileManager.default.createSymbolicLink(at: entry, withDestinationURL: planted)
        let linkedEntry = try run(["call", "cached", "fresh"])
        XCTAssertEqual(linkedEntry.status, 0, linkedEntry.stderr)
        XCTAssertTrue(linkedEntry.stderr.contains("it is a symbolic link"), linkedEntry.stderr)
        XCTAssertEqual(server.receivedRequests.count, 5)
        let replaced = try FileManager.default.attributesOfItem(atPath: entry.path)[.type] as? FileAttributeType
        XCTAssertEqual(replaced, .typeRegular)
        XCTAssertEqual(try Data(contentsOf: planted), plantedBytes)
    }

    /// A 304 the request asked for (its own If-None-Match) is what it asked for: exit 0, as curl.
    func testAHandAdded304IsNoFailureAndETagFilesWork() throws {
        let asked = try run(["call", "cached", "never", "-H", "If-None-Match: \"v4\"", "-i"])
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertTrue(asked.stdout.hasPrefix("HTTP/1.1 304"), asked.stdout)

        let tagFile = folder.url.appendingPathComponent("etag.txt").path
        let first = try run(["request", "GET", "http://127.0.0.1:\(server.port)/etag/poll", "--etag-save", tagFile])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try String(contentsOfFile: tagFile, encoding: .utf8), "\"poll\"\n")
        let again = try run([
            "request", "GET", "http://127.0.0.1:\(server.port)/etag/poll", "--etag-compare", tagFile, "--etag-save",
            tagFile
        ])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "")
        XCTAssertEqual(server.receivedRequests.last?.value(of: "If-None-Match"), "\"poll\"")
        XCTAssertEqual(try String(contentsOfFile: tagFile, encoding: .utf8), "\"poll\"\n")
        // A missing file sends no condition.
        let missing = try run([
            "request", "GET", "http://127.0.0.1:\(server.port)/etag/poll", "--etag-compare", tagFile + ".missing"
        ])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertNil(server.receivedRequests.last?.value(of: "If-None-Match"))
    }
}
