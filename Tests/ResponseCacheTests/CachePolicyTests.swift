import Foundation
import HTTPTypes
import ResponseCache
import XCTest

/// RFC 9111's rules as the cache applies them, without a server.
final class CachePolicyTests: XCTestCase {
    func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return fields
    }

    func entry(_ headers: [(String, String)], status: Int = 200, received: Double = 1_000_000) -> CacheEntry {
        CacheEntry(
            method: "GET", url: "http://127.0.0.1/x", status: status, headers: headers.map { ($0.0, $0.1) },
            body: Data("body".utf8), requestTime: received - 1, responseTime: received, varied: [])
    }

    func testWhatIsStored() {
        func refusal(_ response: [(String, String)], request: [(String, String)] = [], credentials: Bool = false)
            -> String?
        {
            CachePolicy.refusal(
                method: "GET", requestFields: fields(request), hasCredentials: credentials, status: 200,
                responseFields: fields(response))
        }
        XCTAssertNil(refusal([("Cache-Control", "max-age=60")]))
        XCTAssertNil(refusal([("ETag", "\"v1\"")]))
        XCTAssertEqual(refusal([("Cache-Control", "private, max-age=60")]), "the answer is private")
        XCTAssertEqual(refusal([("Cache-Control", "max-age=60, no-store")]), "no-store")
        XCTAssertEqual(refusal([("Cache-Control", "max-age=60")], request: [("Cache-Control", "no-store")]), "no-store")
        XCTAssertNotNil(refusal([("Cache-Control", "max-age=60")], credentials: true))
        XCTAssertNil(refusal([("Cache-Control", "public, max-age=60")], credentials: true))
        XCTAssertEqual(refusal([("Cache-Control", "max-age=60"), ("Vary", "*")]), "Vary: *")
        XCTAssertNotNil(refusal([]))
        XCTAssertNotNil(
            CachePolicy.refusal(
                method: "POST", requestFields: fields([]), hasCredentials: false, status: 200,
                responseFields: fields([("Cache-Control", "max-age=60")])))
    }

    func testFreshnessAndAge() {
        let date = "Mon, 12 Jan 1970 13:46:40 GMT"  // 1,000,000 s
        // max-age wins over Expires; s-maxage is a shared cache's.
        let maxAge = entry([("Date", date), ("Cache-Control", "s-maxage=900, max-age=100"), ("Expires", "0")])
        XCTAssertEqual(CachePolicy.freshnessLifetime(of: maxAge), 100)
        XCTAssertTrue(CachePolicy.isFresh(maxAge, requestFields: fields([]), now: 1_000_050))
        XCTAssertFalse(CachePolicy.isFresh(maxAge, requestFields: fields([]), now: 1_000_101))
        // Age counts: 90 s old when received, so 10 s of life left.
        let aged = entry([("Date", date), ("Cache-Control", "max-age=100"), ("Age", "90")])
        XCTAssertFalse(CachePolicy.isFresh(aged, requestFields: fields([]), now: 1_000_020))
        // Expires - Date; an invalid Expires is in the past.
        XCTAssertEqual(
            CachePolicy.freshnessLifetime(of: entry([("Date", date), ("Expires", "Mon, 12 Jan 1970 13:47:40 GMT")])), 60
        )
        XCTAssertEqual(CachePolicy.freshnessLifetime(of: entry([("Date", date), ("Expires", "0")])), 0)
        // no-cache: stored, but always revalidated; a request's no-cache or max-age=0 too.
        XCTAssertFalse(
            CachePolicy.isFresh(
                entry([("Date", date), ("Cache-Control", "no-cache, max-age=100")]), requestFields: fields([]),
                now: 1_000_001))
        XCTAssertFalse(
            CachePolicy.isFresh(maxAge, requestFields: fields([("Cache-Control", "max-age=0")]), now: 1_000_001))
    }

    func testACutOrAlteredEntryIsNone() {
        let stored = entry([("ETag", "\"v1\"")]).serialized()
        XCTAssertNotNil(CacheEntry(serialized: stored))
        XCTAssertNil(CacheEntry(serialized: stored.dropLast(2)))
        XCTAssertNil(CacheEntry(serialized: Data("{\"version\":1}\nbody".utf8)))
        XCTAssertNil(CacheEntry(serialized: Data()))
        var injected = String(decoding: stored, as: UTF8.self)
        injected = injected.replacingOccurrences(of: "\\\"v1\\\"", with: "v1\\r\\nX-Evil: 1")
        XCTAssertNil(CacheEntry(serialized: Data(injected.utf8)))
        // A URL's file names its variants' files: only names the store makes are believed, never a
        // path that would reach outside the cache folder when the variants are removed.
        var varying = entry([("Vary", "Accept")])
        varying.variantGeneration = "g"
        varying.variantFiles = [String(repeating: "a", count: 64) + ".response"]
        XCTAssertEqual(CacheEntry(serialized: varying.serialized())?.variantFiles, varying.variantFiles)
        for hostile in ["../../victim.response", String(repeating: "A", count: 64) + ".response", "x.response"] {
            varying.variantFiles = [hostile]
            XCTAssertNil(CacheEntry(serialized: varying.serialized()), hostile)
        }
    }

    func testA304FreshensTheStoredHeaders() {
        let stored = entry([("ETag", "\"v1\""), ("Cache-Control", "max-age=0"), ("Content-Type", "text/plain")])
        let updated = CachePolicy.freshened(
            stored, with: fields([("Cache-Control", "max-age=60"), ("Content-Type", "text/html")]), requestTime: 5,
            responseTime: 6)
        XCTAssertEqual(updated.fields[.cacheControl], "max-age=60")
        XCTAssertEqual(updated.fields[.contentType], "text/plain")
        XCTAssertEqual(updated.fields[.eTag], "\"v1\"")
        XCTAssertEqual(updated.responseTime, 6)
        XCTAssertEqual(updated.body, stored.body)
    }
}
