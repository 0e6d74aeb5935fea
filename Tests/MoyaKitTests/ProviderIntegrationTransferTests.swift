import ContentDigest
import Foundation
import MoyaKit
import TestServers
import XCTest

/// Uploads, multipart bodies, downloads and progress over real HTTP.
final class ProviderIntegrationTransferTests: HTTPBinTestCase {
    private let provider = MoyaProvider<HTTPBin>()

    func testUploadFileStreamsTheFileAsTheBody() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("upload.bin")
        let contents = TestBytes.data(count: 300_000)
        try contents.write(to: file)
        let response = try response(.upload(file: file), with: provider)
        XCTAssertEqual(response.statusCode, 200)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "PUT")
        XCTAssertEqual(received.target, "/put")
        XCTAssertEqual(received.values(of: "Content-Length"), ["300000"])
        XCTAssertEqual(received.body, contents)
        XCTAssertEqual(try EchoedRequest(from: response.data).bodySize, 300_000)
    }

    func testUploadFileWithAnyMethod() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("note.txt")
        try Data("note".utf8).write(to: file)
        for method in [MoyaKit.Method.post, .patch] {
            _ = try response(
                .anything(method: method, task: .uploadFile(file), headers: ["Content-Type": "text/plain"]),
                with: provider)
            let received = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertEqual(received.method, method.rawValue)
            XCTAssertEqual(received.body.text, "note")
            XCTAssertEqual(received.values(of: "Content-Type"), ["text/plain"])
        }
    }

    func testUploadOfAMissingFileFailsWithoutReachingTheServer() throws {
        let missing = try makeTemporaryFolder().appendingPathComponent("absent.bin")
        let error = try error(.upload(file: missing), with: provider)
        XCTAssertEqual(error.transportError?.kind, .fileAccess)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testUploadMultipartSendsEveryPart() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("photo.jpg")
        let fileBytes = TestBytes.data(count: 70_000)
        try fileBytes.write(to: file)
        let parts = [
            MultipartFormBodyPart(provider: .data(Data("hello".utf8)), name: "greeting"),
            MultipartFormBodyPart(
                provider: .data(Data([0, 1, 2, 255])), name: "blob", fileName: "blob.bin",
                mimeType: "application/octet-stream"),
            MultipartFormBodyPart(provider: .file(file), name: "photo", fileName: "photo.jpg", mimeType: "image/jpeg")
        ]
        let response = try response(.uploadParts(parts), with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "POST")
        XCTAssertEqual(received.target, "/post")
        XCTAssertTrue(received.value(of: "Content-Type")?.hasPrefix("multipart/form-data; boundary=") ?? false)
        let echoed = try EchoedRequest(from: response.data)
        let receivedParts = try XCTUnwrap(echoed.parts)
        XCTAssertEqual(receivedParts.map(\.name), ["greeting", "blob", "photo"])
        XCTAssertEqual(receivedParts.map(\.filename), [nil, "blob.bin", "photo.jpg"])
        XCTAssertEqual(receivedParts.map(\.contentType), [nil, "application/octet-stream", "image/jpeg"])
        XCTAssertEqual(receivedParts[0].text, "hello")
        XCTAssertEqual(receivedParts[1].sha256, SHA256.hexDigest(of: [0, 1, 2, 255]))
        XCTAssertEqual(receivedParts[2].size, 70_000)
        XCTAssertEqual(receivedParts[2].sha256, SHA256.hexDigest(of: fileBytes))
    }

    func testUploadCompositeMultipartAddsTheQuery() throws {
        let parts = [MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "field")]
        let task = Task.uploadCompositeMultipart(parts, urlParameters: ["album": "summer 2024", "n": 1])
        let response = try response(.anything(method: .put, task: task), with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "PUT")
        XCTAssertEqual(received.target, "/anything?album=summer%202024&n=1")
        let echoed = try EchoedRequest(from: response.data)
        XCTAssertEqual(echoed.parts?.map(\.name), ["field"])
        XCTAssertEqual(echoed.parts?.first?.text, "v")
    }

    func testDownloadDestinationWritesTheBodyToTheFile() throws {
        let destination = try makeTemporaryFolder().appendingPathComponent("nested/folder/bytes.bin")
        let response = try response(.download(bytes: 1_000_000, destination: destination), with: provider)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertTrue(response.data.isEmpty, "a download's body goes to the file")
        XCTAssertEqual(response.response?.headers[.contentLength], "1000000")
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: 1_000_000))
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.target, "/bytes/1000000")
        // Nothing but the file is left in its folder.
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: destination.deletingLastPathComponent().path),
            ["bytes.bin"])
    }

    func testDownloadRefusesToReplaceAFileWithoutRemovePreviousFile() throws {
        let destination = try makeTemporaryFolder().appendingPathComponent("existing.bin")
        try Data("keep me".utf8).write(to: destination)
        let error = try error(.download(bytes: 10, destination: destination), with: provider)
        XCTAssertEqual(error.transportError?.kind, .destinationExists)
        XCTAssertEqual(try Data(contentsOf: destination).text, "keep me")
    }

    func testDownloadParametersEncodesParametersAndSavesTheEcho() throws {
        let destination = try makeTemporaryFolder().appendingPathComponent("echo.json")
        _ = try response(
            .downloadEcho(parameters: ["format": "json", "ids": [1, 2]], destination: destination), with: provider)
        let received = try onlyReceivedRequest()
        XCTAssertEqual(received.method, "GET")
        XCTAssertEqual(received.target, "/anything?format=json&ids%5B%5D=1&ids%5B%5D=2")
        let echoed = try EchoedRequest(from: Data(contentsOf: destination))
        XCTAssertEqual(echoed.args, [["format", "json"], ["ids[]", "1"], ["ids[]", "2"]])
    }

    func testFailedDownloadLeavesNothingBehind() throws {
        let folder = try makeTemporaryFolder()
        let destination = folder.appendingPathComponent("never.bin")
        // The server announces 2 MB, sends half, and closes.
        let error = try error(.downloadTruncated(bytes: 2_000_000, destination: destination), with: provider)
        XCTAssertEqual(error.transportError?.kind, .connectionLost)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testRequestWithProgressForADownload() async throws {
        let destination = try makeTemporaryFolder().appendingPathComponent("progress.bin")
        var values: [ProgressResponse] = []
        for try await value in provider.requestWithProgress(.download(bytes: 4_000_000, destination: destination)) {
            values.append(value)
        }
        try assertMonotonicAndEndsWithResponse(values, total: 4_000_000)
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: 4_000_000))
    }

    func testRequestWithProgressForAnUpload() async throws {
        let file = try makeTemporaryFolder().appendingPathComponent("big-upload.bin")
        try TestBytes.data(count: 4_000_000).write(to: file)
        var values: [ProgressResponse] = []
        for try await value in provider.requestWithProgress(.upload(file: file)) {
            values.append(value)
        }
        try assertMonotonicAndEndsWithResponse(values, total: 4_000_000)
        XCTAssertEqual(server.receivedRequests.last?.bodyLength, 4_000_000)
    }

    func testEndingTheProgressIterationEarlyCancelsTheRequest() async throws {
        let log = EventLog()
        let provider = MoyaProvider<HTTPBin>(plugins: [RecordingPlugin(log: log)])
        let destination = try makeTemporaryFolder().appendingPathComponent("abandoned.bin")
        for try await value in provider.requestWithProgress(.download(bytes: 1 << 30, destination: destination)) {
            XCTAssertFalse(value.completed)
            break
        }
        let cancelled = await waitForLog(log, toContain: "plugin.didReceive cancelled")
        XCTAssertTrue(cancelled, "\(log.all)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }

    func testProgressAndCompletionRunInOrderOnTheCallbackQueue() throws {
        let queue = DispatchQueue(label: "callbacks")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let provider = MoyaProvider<HTTPBin>(callbackQueue: queue)
        let events = EventLog()
        let done = expectation(description: "completion")
        provider.request(
            .bytes(3_000_000),
            progress: { progress in
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), true)
                events.append(progress.completed ? "response \(progress.response?.data.count ?? -1)" : "progress")
            }
        ) { result in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), true)
            events.append("completion \(result.response?.data.count ?? -1)")
            done.fulfill()
        }
        wait(for: [done], timeout: 20)
        let all = events.all
        XCTAssertGreaterThan(all.count, 3)
        XCTAssertEqual(Array(all.suffix(2)), ["response 3000000", "completion 3000000"])
        XCTAssertTrue(all.dropLast(2).allSatisfy { $0 == "progress" })
    }

    private func waitForLog(_ log: EventLog, toContain event: String) async -> Bool {
        for _ in 0..<1_000 where !log.all.contains(event) {
            try? await _Concurrency.Task.sleep(nanoseconds: 10_000_000)
        }
        return log.all.contains(event)
    }

    /// Progress never goes back, the last progress value is the whole size, and a value holding
    /// the response comes last.
    private func assertMonotonicAndEndsWithResponse(
        _ values: [ProgressResponse], total: Int64,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let last = try XCTUnwrap(values.last, file: file, line: line)
        XCTAssertTrue(last.completed, file: file, line: line)
        XCTAssertEqual(last.response?.statusCode, 200, file: file, line: line)
        XCTAssertEqual(values.filter(\.completed).count, 1, file: file, line: line)
        let transferred = values.dropLast().compactMap(\.progressObject)
        XCTAssertGreaterThan(transferred.count, 1, "expected several progress values", file: file, line: line)
        XCTAssertEqual(transferred.last?.completedBytes, total, file: file, line: line)
        let counts = transferred.map(\.completedBytes)
        XCTAssertEqual(counts, counts.sorted(), "progress went backwards", file: file, line: line)
        let fractions = values.map(\.progress)
        XCTAssertEqual(fractions, fractions.sorted(), file: file, line: line)
        XCTAssertEqual(fractions.last, 1, file: file, line: line)
    }
}
