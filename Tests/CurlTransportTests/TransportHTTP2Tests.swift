import Foundation
import TestServers
import XCTest

@testable import CurlTransport

/// HTTP/2 against nginx: prior knowledge over cleartext, ALPN over TLS, multiplexing, downloads.
/// (`HTTPTestServer` speaks only HTTP/1.1.) Skips when nginx or openssl is not installed;
/// `make test` installs nginx-light.
final class TransportHTTP2Tests: XCTestCase {
    private var nginx: NginxHTTP2Fixture!
    private var server: NginxTestServer { nginx.server }

    override func setUpWithError() throws {
        nginx = try NginxHTTP2Fixture()
    }

    override func tearDown() {
        nginx?.server.stop()
    }

    func testPriorKnowledgeOverCleartextSpeaksHTTP2() throws {
        let response = try response(
            to: makeRequest(server.url("/hello.json", secure: false)), session: nginx.session(.http2))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.httpVersion, "HTTP/2")
        XCTAssertEqual(response.body, NginxTestServer.helloJSON)
        XCTAssertEqual(response.head.headers[.contentType], "application/json")
        XCTAssertEqual(server.accessLog(waitingFor: 1).map(\.httpProtocol), ["HTTP/2.0"], server.errorLog)
    }

    func testAutomaticOverTLSNegotiatesHTTP2() throws {
        let response = try response(
            to: makeRequest(server.url("/hello.json", secure: true)), session: nginx.session(.automatic))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.httpVersion, "HTTP/2")
        XCTAssertEqual(response.body, NginxTestServer.helloJSON)
        XCTAssertGreaterThan(response.timing.tlsHandshake, 0)
        XCTAssertEqual(server.accessLog(waitingFor: 1).map(\.httpProtocol), ["HTTP/2.0"])
    }

    func testHTTP2PreferenceOverTLSSpeaksHTTP2() throws {
        let response = try response(
            to: makeRequest(server.url("/hello.json", secure: true)), session: nginx.session(.http2))
        XCTAssertEqual(response.head.httpVersion, "HTTP/2")
        XCTAssertEqual(response.body, NginxTestServer.helloJSON)
    }

    func testHTTP11PreferenceOverTLSStaysOnHTTP11() throws {
        let response = try response(
            to: makeRequest(server.url("/hello.json", secure: true)), session: nginx.session(.http1_1))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.httpVersion, "HTTP/1.1")
        XCTAssertEqual(response.body, NginxTestServer.helloJSON)
        XCTAssertEqual(server.accessLog(waitingFor: 1).map(\.httpProtocol), ["HTTP/1.1"])
    }

    func testNotFoundOverHTTP2IsAResponseNotAnError() throws {
        let response = try response(
            to: makeRequest(server.url("/missing.json", secure: false)), session: nginx.session(.http2))
        XCTAssertEqual(response.head.statusCode, 404)
        XCTAssertEqual(response.head.httpVersion, "HTTP/2")
    }

    func testResponseHeadersArriveWithoutPseudoHeaders() throws {
        let response = try response(
            to: makeRequest(server.url("/hello.json", secure: true)), session: nginx.session(.automatic))
        let names = response.head.headers.map { $0.name.canonicalName }
        XCTAssertFalse(names.contains { $0.hasPrefix(":") }, "\(names)")
        XCTAssertEqual(response.head.headers[.contentLength], String(NginxTestServer.helloJSON.count))
        XCTAssertNotNil(response.head.headers[.lastModified])
    }

    func testTwentyConcurrentRequestsAreMultiplexed() throws {
        let log = try burst(of: 20, version: .automatic)
        XCTAssertEqual(Set(log.map(\.httpProtocol)), ["HTTP/2.0"])
        // libcurl's per-host limit (16) alone would already keep this under 20: one connection is
        // what shows the burst waited for HTTP/2 instead of opening a connection per request.
        XCTAssertEqual(Set(log.map(\.connection)).count, 1, "every request is a stream of one connection")
    }

    func testHTTP11BurstOverTLSOpensSeveralConnections() throws {
        let log = try burst(of: 20, version: .http1_1)
        XCTAssertEqual(Set(log.map(\.httpProtocol)), ["HTTP/1.1"])
        let connections = Set(log.map(\.connection)).count
        XCTAssertGreaterThan(connections, 1, "HTTP/1.1 requests run side by side on connections of their own")
        XCTAssertLessThanOrEqual(connections, TransportLoop.maximumConnectionsPerHost)
    }

    func testOnlyTransfersThatCanBecomeHTTP2StreamsWaitForAConnection() {
        XCTAssertTrue(EasyHandle.mayMultiplex(url: "https://example.com/", version: .automatic))
        XCTAssertTrue(EasyHandle.mayMultiplex(url: "HTTPS://example.com/", version: .automatic))
        XCTAssertFalse(EasyHandle.mayMultiplex(url: "http://example.com/", version: .automatic))
        XCTAssertTrue(EasyHandle.mayMultiplex(url: "http://example.com/", version: .http2))
        XCTAssertFalse(EasyHandle.mayMultiplex(url: "https://example.com/", version: .http1_1))
    }

    /// Starts `count` requests for distinct files over TLS at once, checks every response, and
    /// returns nginx's access log of them.
    private func burst(
        of count: Int, version: SessionConfiguration.HTTPVersionPreference,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [NginxTestServer.AccessLogEntry] {
        let session = nginx.session(version)
        let recorders = (0..<count).map { _ in TransferRecorder() }
        for (index, recorder) in recorders.enumerated() {
            _ = session.perform(
                makeRequest(server.url("/numbered/\(index).json", secure: true)), downloadTo: nil,
                overwrite: false, progress: nil, completion: recorder.completion)
        }
        for (index, recorder) in recorders.enumerated() {
            let result = try XCTUnwrap(recorder.wait(), "request \(index) did not finish", file: file, line: line)
            let response = try result.get()
            XCTAssertEqual(response.head.statusCode, 200, file: file, line: line)
            XCTAssertEqual(
                response.body, NginxTestServer.numberedJSON(index), "each completion gets its own response",
                file: file, line: line)
        }
        XCTAssertEqual(recorders.map(\.completionCount), Array(repeating: 1, count: count), file: file, line: line)
        let log = server.accessLog(waitingFor: count)
        XCTAssertEqual(Set(log.map(\.uri)), Set((0..<count).map { "/numbered/\($0).json" }), file: file, line: line)
        return log
    }

    func testRequestsAfterTheFirstShareItsConnection() throws {
        let session = nginx.session(.automatic)
        _ = try response(to: makeRequest(server.url("/hello.json", secure: true)), session: session)
        let count = 10
        let recorders = (0..<count).map { _ in TransferRecorder() }
        for (index, recorder) in recorders.enumerated() {
            _ = session.perform(
                makeRequest(server.url("/numbered/\(index).json", secure: true)), downloadTo: nil,
                overwrite: false, progress: nil, completion: recorder.completion)
        }
        for (index, recorder) in recorders.enumerated() {
            guard case .success(let response) = try XCTUnwrap(recorder.wait()) else {
                return XCTFail("request \(index) failed")
            }
            XCTAssertEqual(response.body, NginxTestServer.numberedJSON(index))
        }
        let log = server.accessLog(waitingFor: count + 1)
        XCTAssertEqual(log.count, count + 1)
        XCTAssertEqual(Set(log.map(\.connection)).count, 1, "a known HTTP/2 connection carries every later stream")
    }

    func testDownloadOverHTTP2StreamsToTheFile() throws {
        let folder = try makeTemporaryFolder()
        let destination = folder.appendingPathComponent("bytes.bin")
        let recorder = TransferRecorder()
        _ = nginx.session(.http2).perform(
            makeRequest(server.url("/bytes.bin", secure: false)), downloadTo: destination, overwrite: false,
            progress: recorder.progress, completion: recorder.completion)
        guard case .success(let response) = try XCTUnwrap(recorder.wait()) else {
            return XCTFail("the download failed")
        }
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.httpVersion, "HTTP/2")
        XCTAssertEqual(response.downloadedFile, destination)
        XCTAssertTrue(response.body.isEmpty, "a download keeps nothing in memory")
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: NginxTestServer.bytesFileSize))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path), ["bytes.bin"], "no temporary file left")
        XCTAssertEqual(recorder.reportedProgress.last?.completedBytes, Int64(NginxTestServer.bytesFileSize))
    }

    func testDownloadOverTLSWithALPN() throws {
        let folder = try makeTemporaryFolder()
        let destination = folder.appendingPathComponent("bytes.bin")
        let response = try response(
            to: makeRequest(server.url("/bytes.bin", secure: true)), session: nginx.session(.automatic),
            downloadTo: destination)
        XCTAssertEqual(response.head.httpVersion, "HTTP/2")
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: NginxTestServer.bytesFileSize))
    }

    func testStopEndsNginx() throws {
        let port = server.cleartextPort
        server.stop()
        server.stop()
        let error = try transportError(
            for: makeRequest(server.url("/hello.json", secure: false)), session: nginx.session(.http2))
        XCTAssertEqual(error.kind, .cannotConnect, "nothing listens on \(port) any more: \(error.message)")
    }
}
