import CCurl
import Foundation
import TestServers
import XCTest

@testable import CurlTransport

/// Compressed responses are asked for with the `Accept-Encoding` libcurl itself would send, as a
/// header line of the request (libcurl would otherwise format the line again for each request),
/// and still decoded; a request's own `Accept-Encoding` is the only one sent.
final class AcceptEncodingTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testTheEncodingsAreTheOnesLibcurlDecodesInItsOrder() {
        XCTAssertEqual(
            Libcurl.acceptedEncodings(features: CURL_VERSION_LIBZ | CURL_VERSION_BROTLI | CURL_VERSION_ZSTD),
            "deflate, gzip, br, zstd")
        XCTAssertEqual(Libcurl.acceptedEncodings(features: CURL_VERSION_LIBZ), "deflate, gzip")
        XCTAssertEqual(Libcurl.acceptedEncodings(features: CURL_VERSION_ZSTD | CURL_VERSION_SSL), "zstd")
        XCTAssertNil(Libcurl.acceptedEncodings(features: CURL_VERSION_SSL | CURL_VERSION_IPV6))
    }

    func testACompressedBodyIsAskedForOnceAndDecoded() throws {
        let curl = try Libcurl.shared.get()
        let encodings = try XCTUnwrap(curl.acceptedEncodings, "Debian's libcurl decodes gzip")
        let answer = try response(to: makeRequest(server.url("/gzip")))
        XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), HTTPTestServer.jsonDocument)
        let received = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(received.values(of: "Accept-Encoding"), [encodings])
        XCTAssertTrue(encodings.contains("gzip"), encodings)
    }

    func testTheLineIsTheOneCurlSendsWithTheSameLibrary() throws {
        // curl --compressed sets CURLOPT_ACCEPT_ENCODING "" on the same libcurl, which then
        // formats the line itself: it must read as ours.
        guard
            let curlPath = ["/usr/bin/curl", "/usr/local/bin/curl"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw XCTSkip("no curl program to compare with")
        }
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: curlPath)
        curl.arguments = ["-s", "-o", "/dev/null", "--compressed", server.url("/anything").absoluteString]
        try curl.run()
        curl.waitUntilExit()
        XCTAssertEqual(curl.terminationStatus, 0)
        let theirs = try XCTUnwrap(server.receivedRequests.last).values(of: "Accept-Encoding")
        _ = try response(to: makeRequest(server.url("/anything")))
        XCTAssertEqual(try XCTUnwrap(server.receivedRequests.last).values(of: "Accept-Encoding"), theirs)
    }

    func testARequestsOwnAcceptEncodingIsTheOnlyOne() throws {
        _ = try response(to: makeRequest(server.url("/anything"), headers: [("Accept-Encoding", "identity")]))
        XCTAssertEqual(try XCTUnwrap(server.receivedRequests.last).values(of: "Accept-Encoding"), ["identity"])
    }

    func testNoEncodingIsAskedForWhenTheSessionDeclinesCompression() throws {
        var configuration = SessionConfiguration()
        configuration.acceptsCompressedResponses = false
        _ = try response(to: makeRequest(server.url("/anything")), session: Session(configuration: configuration))
        XCTAssertEqual(try XCTUnwrap(server.receivedRequests.last).values(of: "Accept-Encoding"), [])
        // A compressed body then arrives as sent.
        let raw = try response(to: makeRequest(server.url("/gzip")), session: Session(configuration: configuration))
        XCTAssertNotEqual(String(decoding: raw.body, as: UTF8.self), HTTPTestServer.jsonDocument)
        XCTAssertEqual(Array(raw.body.prefix(2)), [0x1F, 0x8B], "gzip's magic number")
    }
}
