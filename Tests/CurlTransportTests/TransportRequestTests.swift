import Foundation
import HTTPTypes
import TestServers
import XCTest

// The digest the echo server reports parts by.
import struct ContentDigest.SHA256

@testable import CurlTransport

final class TransportRequestTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testGetReturnsStatusHeadersBodyAndFinalURL() throws {
        let response = try response(to: makeRequest(server.url("/get?b=2&a=1&b=3")))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.httpVersion, "HTTP/1.1")
        XCTAssertEqual(response.head.url, server.url("/get?b=2&a=1&b=3"))
        XCTAssertEqual(response.head.headers[.contentType], "application/json")
        XCTAssertNil(response.downloadedFile)
        let echo = try EchoedRequest(from: response.body)
        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.path, "/get")
        XCTAssertEqual(echo.args, [["b", "2"], ["a", "1"], ["b", "3"]])
        XCTAssertEqual(echo.bodySize, 0)
    }

    func testEveryMethodArrivesAsSent() throws {
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"] {
            let response = try response(to: makeRequest(server.url("/anything/\(method.lowercased())"), method: method))
            XCTAssertEqual(response.head.statusCode, 200, method)
            XCTAssertEqual(try EchoedRequest(from: response.body).method, method)
        }
        XCTAssertEqual(
            server.receivedRequests.map(\.method),
            ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"])
    }

    func testHeadReturnsHeadersWithoutBody() throws {
        let response = try response(to: makeRequest(server.url("/bytes/5000"), method: "HEAD"))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.headers[.contentLength], "5000")
        XCTAssertEqual(response.body.count, 0)
        XCTAssertEqual(server.receivedRequests.last?.method, "HEAD")
    }

    func testBodyFromMemoryArrivesExactly() throws {
        let body = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for method in ["POST", "PUT", "PATCH"] {
            var request = makeRequest(
                server.url("/anything"), method: method, headers: [("Content-Type", "application/octet-stream")])
            request.httpBody = body
            let echo = try EchoedRequest(from: response(to: request).body)
            XCTAssertEqual(echo.method, method)
            XCTAssertEqual(echo.bodySize, body.count)
            let received = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertEqual(received.body, body)
            XCTAssertEqual(received.value(of: "Content-Length"), "70000")
            XCTAssertTrue(received.values(of: "Expect").isEmpty, "no Expect: 100-continue")
        }
    }

    func testEmptyPostSendsZeroLength() throws {
        let response = try response(to: makeRequest(server.url("/post"), method: "POST"))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Content-Length"), "0")
    }

    func testEmptyBodiesSendZeroLengthWithTheirMethod() throws {
        let cases: [(method: String, body: Data?)] = [
            ("POST", nil), ("POST", Data()), ("PUT", Data()), ("PATCH", Data())
        ]
        for (method, body) in cases {
            var request = makeRequest(server.url("/anything"), method: method)
            request.httpBody = body
            XCTAssertEqual(try response(to: request).head.statusCode, 200)
            let received = try XCTUnwrap(server.receivedRequests.last)
            let label = "\(method) \(body == nil ? "nil" : "empty")"
            XCTAssertEqual(received.method, method, label)
            XCTAssertEqual(received.value(of: "Content-Length"), "0", label)
            XCTAssertTrue(received.values(of: "Content-Type").isEmpty, label)
            XCTAssertEqual(received.body, Data(), label)
        }
    }

    func testBodylessRequestsCarryNeitherContentTypeNorExpect() throws {
        for method in ["GET", "DELETE", "OPTIONS", "PROPFIND"] {
            _ = try response(to: makeRequest(server.url("/anything"), method: method))
            let received = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertTrue(received.values(of: "Content-Type").isEmpty, method)
            XCTAssertTrue(received.values(of: "Expect").isEmpty, method)
            XCTAssertNil(received.value(of: "Content-Length"), method)
        }
        // The lines that keep libcurl from adding those two go only with a request it sends a
        // body with: for any other they would only cost libcurl a comparison per line.
        let lines = { (request: URLRequest) in EasyHandle.headerLines(of: request, acceptEncoding: nil) }
        XCTAssertEqual(lines(makeRequest(server.url("/a"), headers: [("Accept", "*/*")])), ["Accept: */*"])
        XCTAssertEqual(lines(makeRequest(server.url("/a"), method: "DELETE")), [])
        XCTAssertEqual(lines(makeRequest(server.url("/a"), method: "POST")), ["Expect:", "Content-Type:"])
        var put = makeRequest(server.url("/a"), method: "PUT")
        put.httpBody = Data()
        XCTAssertEqual(lines(put), ["Expect:", "Content-Type:"])
        put.httpBody = Data("x".utf8)
        XCTAssertEqual(lines(put), ["Expect:"])
        XCTAssertEqual(
            EasyHandle.headerLines(of: makeRequest(server.url("/a")), acceptEncoding: "gzip"), ["Accept-Encoding: gzip"]
        )
    }

    func testUploadFileIsStreamedWithItsMethod() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("upload.bin")
        let contents = TestBytes.data(count: 3_000_001)
        try contents.write(to: file)
        for method in ["POST", "PUT", "PATCH"] {
            var request = makeRequest(server.url("/anything"), method: method)
            request.bodyFileURL = file
            let echo = try EchoedRequest(from: response(to: request).body)
            XCTAssertEqual(echo.method, method)
            let received = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertEqual(received.bodyLength, contents.count)
            XCTAssertEqual(received.body, contents, "\(method): the server must receive the file byte for byte")
            XCTAssertEqual(received.value(of: "Content-Length"), "3000001")
            XCTAssertFalse(received.isChunked)
            XCTAssertTrue(received.values(of: "Expect").isEmpty)
        }
    }

    func testMissingUploadFileFailsBeforeSending() throws {
        var request = makeRequest(server.url("/anything"), method: "PUT")
        request.bodyFileURL = URL(fileURLWithPath: "/nonexistent/upload.bin")
        let error = try transportError(for: request)
        XCTAssertEqual(error.kind, .fileAccess)
        XCTAssertTrue(error.message.contains("/nonexistent/upload.bin"), error.message)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testMultipartSendsPartsWithNamesFileNamesAndTypes() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("photo.png")
        let fileContents = TestBytes.data(offset: 99, count: 200_000)
        try fileContents.write(to: file)
        var request = makeRequest(server.url("/anything"), method: "POST")
        request.multipartParts = [
            MultipartFormBodyPart(provider: .data(Data("hello world".utf8)), name: "greeting"),
            MultipartFormBodyPart(
                provider: .data(Data("{\"a\":1}".utf8)), name: "meta", fileName: "meta.json",
                mimeType: "application/json"),
            MultipartFormBodyPart(provider: .file(file), name: "image"),
            MultipartFormBodyPart(
                provider: .file(file), name: "renamed", fileName: "other.bin", mimeType: "application/x-test"),
            MultipartFormBodyPart(provider: .data(Data()), name: "empty")
        ]
        let echo = try EchoedRequest(from: response(to: request).body)
        let parts = try XCTUnwrap(echo.parts)
        XCTAssertEqual(parts.map(\.name), ["greeting", "meta", "image", "renamed", "empty"])
        XCTAssertEqual(parts.map(\.filename), [nil, "meta.json", "photo.png", "other.bin", nil])
        XCTAssertEqual(parts[0].text, "hello world")
        XCTAssertEqual(parts[1].contentType, "application/json")
        XCTAssertEqual(parts[1].text, "{\"a\":1}")
        XCTAssertEqual(parts[2].size, fileContents.count)
        XCTAssertEqual(parts[2].sha256, SHA256.hexDigest(of: fileContents))
        XCTAssertEqual(parts[3].contentType, "application/x-test")
        XCTAssertEqual(parts[3].sha256, SHA256.hexDigest(of: fileContents))
        XCTAssertEqual(parts[4].size, 0)
        XCTAssertTrue(echo.headerValues("Content-Type").first?.hasPrefix("multipart/form-data; boundary=") ?? false)
    }

    func testMultipartWithPutKeepsTheMethod() throws {
        var request = makeRequest(server.url("/anything"), method: "PUT")
        request.multipartParts = [MultipartFormBodyPart(provider: .data(Data("x".utf8)), name: "field")]
        let echo = try EchoedRequest(from: response(to: request).body)
        XCTAssertEqual(echo.method, "PUT")
        XCTAssertEqual(echo.parts?.map(\.name), ["field"])
    }

    func testMultipartWithMissingFileFailsAsFileAccess() throws {
        var request = makeRequest(server.url("/anything"), method: "POST")
        request.multipartParts = [
            MultipartFormBodyPart(provider: .file(URL(fileURLWithPath: "/nonexistent/part.txt")), name: "file")
        ]
        let error = try transportError(for: request)
        XCTAssertEqual(error.kind, .fileAccess)
        XCTAssertTrue(error.message.contains("/nonexistent/part.txt"), error.message)
    }

    func testRequestHeadersKeepOrderAndRepeatedNames() throws {
        let request = makeRequest(
            server.url("/headers"),
            headers: [
                ("X-Trace", "one"), ("Accept", "application/json"), ("X-Trace", "two"), ("X-Empty", "")
            ])
        _ = try response(to: request)
        let received = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(received.values(of: "X-Trace"), ["one", "two"])
        XCTAssertEqual(received.values(of: "Accept"), ["application/json"])
        XCTAssertEqual(received.values(of: "X-Empty"), [""])
        let head = String(decoding: received.rawHead, as: UTF8.self)
        let first = try XCTUnwrap(head.range(of: "X-Trace: one\r\n"))
        let second = try XCTUnwrap(head.range(of: "X-Trace: two\r\n"))
        XCTAssertLessThan(first.lowerBound, second.lowerBound)
        XCTAssertTrue(head.hasPrefix("GET /headers HTTP/1.1\r\n"), head)
    }

    func testResponseHeadersKeepOrderAndRepeatedNames() throws {
        let response = try response(to: makeRequest(server.url("/response-headers?X-Dup=a&Set-Cookie=s%3D1&X-Dup=b")))
        let dup = try XCTUnwrap(HTTPField.Name("X-Dup"))
        XCTAssertEqual(response.head.headers[values: dup], ["a", "b"])
        XCTAssertEqual(response.head.headers[values: .setCookie], ["s=1"])
        let names = response.head.headers.map(\.name.rawName)
        XCTAssertEqual(names, ["Content-Type", "X-Dup", "Set-Cookie", "X-Dup", "Content-Length", "Connection"])
    }

    func testInterimResponseHeadersAreDropped() throws {
        var request = makeRequest(server.url("/anything"), method: "POST", headers: [("Expect", "100-continue")])
        request.httpBody = Data("body".utf8)
        let response = try response(to: request)
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.headers.map(\.name.rawName), ["Content-Type", "Content-Length", "Connection"])
        XCTAssertEqual(try EchoedRequest(from: response.body).bodyText, "body")
    }

    func testNonSuccessStatusesAreResponsesNotErrors() throws {
        for status in [201, 204, 400, 404, 500, 503] {
            XCTAssertEqual(try response(to: makeRequest(server.url("/status/\(status)"))).head.statusCode, status)
        }
    }

    func testTimingIsFilledAndOrdered() throws {
        let response = try response(to: makeRequest(server.url("/delay/50")))
        let timing = response.timing
        XCTAssertGreaterThan(timing.connect, 0)
        XCTAssertGreaterThanOrEqual(timing.firstByte, 0.05)
        XCTAssertGreaterThanOrEqual(timing.total, timing.firstByte)
        XCTAssertGreaterThanOrEqual(timing.firstByte, timing.connect)
        XCTAssertEqual(timing.tlsHandshake, 0, "no TLS on plain HTTP")
    }

    func testProtocolVersionPreferenceHTTP11() throws {
        var configuration = SessionConfiguration()
        configuration.httpVersion = .http1_1
        let response = try response(to: makeRequest(server.url("/get")), session: Session(configuration: configuration))
        XCTAssertEqual(response.head.httpVersion, "HTTP/1.1")
    }

    func testUploadProgressIsMonotonicAndComplete() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("upload.bin")
        try TestBytes.data(count: 2_000_000).write(to: file)
        var request = makeRequest(server.url("/anything"), method: "PUT")
        request.bodyFileURL = file
        let recorder = TransferRecorder()
        _ = Session().perform(
            request, downloadTo: nil, overwrite: false, progress: recorder.progress, completion: recorder.completion)
        guard case .success = try XCTUnwrap(recorder.wait()) else { return XCTFail("upload failed") }
        let values = recorder.reportedProgress
        XCTAssertFalse(values.isEmpty)
        XCTAssertEqual(values.map(\.completedBytes), values.map(\.completedBytes).sorted())
        XCTAssertEqual(values.last?.completedBytes, 2_000_000)
        XCTAssertEqual(values.last?.fractionCompleted, 1)
        XCTAssertTrue(values.allSatisfy(\.isUpload), "a file upload reports its upload throughout")
    }

    /// A body in memory is reported going up (with its size as the total), then the answer coming
    /// down; each direction grows on its own.
    func testInMemoryBodyReportsItsUploadThenTheAnswer() throws {
        var request = makeRequest(server.url("/anything"), method: "POST")
        request.httpBody = TestBytes.data(count: 3_000_000)
        let recorder = TransferRecorder()
        _ = Session().perform(
            request, downloadTo: nil, overwrite: false, progress: recorder.progress, completion: recorder.completion)
        guard case .success(let response) = try XCTUnwrap(recorder.wait()) else { return XCTFail("request failed") }
        let values = recorder.reportedProgress
        let uploads = values.prefix { $0.isUpload }
        let downloads = values.dropFirst(uploads.count)
        XCTAssertFalse(uploads.isEmpty, "\(values)")
        XCTAssertTrue(uploads.allSatisfy { $0.totalBytes == nil || $0.totalBytes == 3_000_000 }, "\(uploads)")
        XCTAssertEqual(uploads.last?.totalBytes, 3_000_000)
        XCTAssertEqual(uploads.map(\.completedBytes), uploads.map(\.completedBytes).sorted())
        XCTAssertFalse(downloads.isEmpty)
        XCTAssertFalse(downloads.contains(where: \.isUpload), "no upload after the answer began: \(values)")
        XCTAssertEqual(downloads.map(\.completedBytes), downloads.map(\.completedBytes).sorted())
        XCTAssertEqual(downloads.last?.completedBytes, Int64(response.body.count))
    }
}
