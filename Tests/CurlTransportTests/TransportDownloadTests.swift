import CurlTransport
import FileIO
import Foundation
import TestServers
import XCTest

final class TransportDownloadTests: XCTestCase {
    private var server: HTTPTestServer!
    private var folder: URL!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try makeTemporaryFolder()
    }

    override func tearDown() {
        server.stop()
    }

    private func folderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    func testDownloadWritesTheBodyToTheDestinationOnly() throws {
        let destination = folder.appendingPathComponent("data.bin")
        let response = try response(to: makeRequest(server.url("/bytes/1000003")), downloadTo: destination)
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.downloadedFile, destination)
        XCTAssertTrue(response.body.isEmpty, "a download keeps nothing in memory")
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: 1_000_003))
        XCTAssertEqual(try folderContents(), ["data.bin"], "no temporary file left behind")
    }

    func testChunkedDownload() throws {
        let destination = folder.appendingPathComponent("chunked.bin")
        _ = try response(to: makeRequest(server.url("/stream-bytes/300000")), downloadTo: destination)
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: 300_000))
        XCTAssertEqual(try folderContents(), ["chunked.bin"])
    }

    func testExistingDestinationIsRefusedWithoutOverwrite() throws {
        let destination = folder.appendingPathComponent("keep.txt")
        try Data("precious".utf8).write(to: destination)
        let error = try transportError(for: makeRequest(server.url("/bytes/100")), downloadTo: destination)
        XCTAssertEqual(error.kind, .destinationExists)
        XCTAssertTrue(error.message.contains(destination.path), error.message)
        XCTAssertEqual(try Data(contentsOf: destination), Data("precious".utf8))
        XCTAssertEqual(try folderContents(), ["keep.txt"])
        XCTAssertTrue(server.receivedRequests.isEmpty, "refused before anything is sent")
    }

    func testOverwriteReplacesAnExistingDestination() throws {
        let destination = folder.appendingPathComponent("replace.bin")
        try Data("old contents".utf8).write(to: destination)
        _ = try response(to: makeRequest(server.url("/bytes/5000")), downloadTo: destination, overwrite: true)
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: 5000))
        XCTAssertEqual(try folderContents(), ["replace.bin"])
    }

    func testMissingDestinationFolderIsAWriteError() throws {
        let destination = folder.appendingPathComponent("no/such/folder/file.bin")
        let error = try transportError(for: makeRequest(server.url("/bytes/10")), downloadTo: destination)
        XCTAssertEqual(error.kind, .cannotWriteOutput)
        XCTAssertTrue(error.message.contains(destination.path), error.message)
    }

    func testWriteSavesWholeBodiesLikeADownload() throws {
        let destination = folder.appendingPathComponent("saved.bin")
        try OutputFile.write(TestBytes.data(count: 70_000), to: destination, overwrite: false)
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: 70_000))

        XCTAssertThrowsError(try OutputFile.write(Data("other".utf8), to: destination, overwrite: false)) { error in
            let failure = error as? FileError
            XCTAssertEqual(failure?.kind, .destinationExists)
            XCTAssertEqual(failure?.message, "\(destination.path) already exists; not overwriting it")
        }
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: 70_000), "the existing file is kept")

        try OutputFile.write(Data(), to: destination, overwrite: true)
        XCTAssertEqual(try Data(contentsOf: destination), Data(), "an empty body replaces the file with an empty one")
        XCTAssertEqual(try folderContents(), ["saved.bin"], "no temporary file left behind")
    }

    func testWriteIntoAMissingFolderLeavesNothing() throws {
        let destination = folder.appendingPathComponent("absent/saved.bin")
        XCTAssertThrowsError(try OutputFile.write(Data("x".utf8), to: destination, overwrite: true)) { error in
            XCTAssertEqual((error as? FileError)?.kind, .cannotWriteOutput)
            XCTAssertTrue((error as? FileError)?.message.contains(destination.path) ?? false, "\(error)")
        }
        XCTAssertEqual(try folderContents(), [])
    }

    func testConnectionLostMidwayLeavesNothing() throws {
        let destination = folder.appendingPathComponent("partial.bin")
        let error = try transportError(for: makeRequest(server.url("/truncated/2000000")), downloadTo: destination)
        XCTAssertEqual(error.kind, .connectionLost, error.message)
        XCTAssertEqual(try folderContents(), [])
    }

    func testTimeoutMidwayLeavesNothing() throws {
        var configuration = SessionConfiguration()
        configuration.timeout = 0.5
        let destination = folder.appendingPathComponent("stalled.bin")
        let error = try transportError(
            for: makeRequest(server.url("/slow-body")), session: Session(configuration: configuration),
            downloadTo: destination)
        XCTAssertEqual(error.kind, .timedOut, error.message)
        XCTAssertEqual(try folderContents(), [])
    }

    func testCancelMidwayLeavesNothing() throws {
        let destination = folder.appendingPathComponent("cancelled.bin")
        let recorder = TransferRecorder()
        let firstBytes = DispatchSemaphore(value: 0)
        let request = Session().perform(
            makeRequest(server.url("/slow-body")), downloadTo: destination, overwrite: false,
            progress: { if $0.completedBytes > 0 { firstBytes.signal() } },
            completion: recorder.completion)
        XCTAssertEqual(firstBytes.wait(timeout: .now() + 10), .success)
        XCTAssertGreaterThan(try folderContents().count, 0, "the temporary file exists while downloading")
        request.cancel()
        let result = try XCTUnwrap(recorder.wait())
        guard case .failure(let error) = result else { return XCTFail("expected cancellation") }
        XCTAssertEqual(error.kind, .cancelled)
        XCTAssertTrue(request.isCancelled)
        XCTAssertEqual(try folderContents(), [])
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(recorder.completionCount, 1)
    }

    func testCancelMidBodyWithoutAProgressHandlerEndsAtOnce() throws {
        // The loop itself removes a cancelled transfer, in the middle of its body as before it;
        // no progress handler is there to abort it.
        let destination = folder.appendingPathComponent("quiet.bin")
        let recorder = TransferRecorder()
        let request = Session().perform(
            makeRequest(server.url("/slow-body")), downloadTo: destination, overwrite: false,
            progress: nil, completion: recorder.completion)
        // The first bytes of the body are in the temporary file: the transfer is mid-body.
        let deadline = Date().addingTimeInterval(10)
        func bytesWritten() throws -> Int {
            try folderContents().reduce(0) { total, name in
                let size =
                    try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]
                    as? Int
                return total + (size ?? 0)
            }
        }
        while try bytesWritten() == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertGreaterThan(try bytesWritten(), 0, "the body began")
        let cancelled = Date()
        request.cancel()
        let result = try XCTUnwrap(recorder.wait())
        guard case .failure(let error) = result else { return XCTFail("expected cancellation") }
        XCTAssertEqual(error.kind, .cancelled)
        XCTAssertLessThan(
            Date().timeIntervalSince(cancelled), 5, "the server never ends the body: only the cancel does")
        XCTAssertEqual(try folderContents(), [])
    }

    func testDownloadProgressIsMonotonicAndComplete() throws {
        let destination = folder.appendingPathComponent("progress.bin")
        let recorder = TransferRecorder()
        _ = Session().perform(
            makeRequest(server.url("/bytes/4000000")), downloadTo: destination, overwrite: false,
            progress: recorder.progress, completion: recorder.completion)
        guard case .success = try XCTUnwrap(recorder.wait()) else { return XCTFail("download failed") }
        let values = recorder.reportedProgress
        XCTAssertGreaterThan(values.count, 1)
        XCTAssertEqual(values.map(\.completedBytes), values.map(\.completedBytes).sorted())
        XCTAssertEqual(values.last?.completedBytes, 4_000_000)
        XCTAssertEqual(values.last?.totalBytes, 4_000_000)
        XCTAssertTrue(values.allSatisfy { $0.totalBytes == nil || $0.totalBytes == 4_000_000 })
    }

    func testInMemoryBodyProgressForChunkedResponse() throws {
        let recorder = TransferRecorder()
        _ = Session().perform(
            makeRequest(server.url("/stream-bytes/500000")), downloadTo: nil, overwrite: false,
            progress: recorder.progress, completion: recorder.completion)
        guard case .success(let response) = try XCTUnwrap(recorder.wait()) else { return XCTFail("request failed") }
        XCTAssertEqual(response.body, TestBytes.data(count: 500_000))
        XCTAssertEqual(recorder.reportedProgress.last, TransferProgress(completedBytes: 500_000, totalBytes: 500_000))
    }

    /// Measures and bounds peak memory while downloading a large file, whose bytes are checked;
    /// the size is MOYAKIT_BIG_DOWNLOAD_MIB (default 1024). The time against the curl CLI is
    /// `make bench`'s (scripts/bench-memory.py).
    func testLargeDownloadKeepsMemoryFlat() throws {
        let mebibytes = Int(ProcessInfo.processInfo.environment["MOYAKIT_BIG_DOWNLOAD_MIB"] ?? "") ?? 1024
        let size = mebibytes * 1024 * 1024
        let destination = folder.appendingPathComponent("large.bin")
        // Writing 5 to clear_refs resets the peak (VmHWM) to the current size (Linux 4.0+).
        let canResetPeak = ProcessInspection.resetPeakMemory()
        let before = try XCTUnwrap(ProcessInspection.statusKiB("VmHWM"))
        let response = try response(to: makeRequest(server.url("/bytes/\(size)")), downloadTo: destination)
        let after = try XCTUnwrap(ProcessInspection.statusKiB("VmHWM"))
        XCTAssertEqual(response.head.statusCode, 200)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
        XCTAssertEqual((attributes[.size] as? NSNumber)?.intValue, size)
        XCTAssertTrue(try TestBytes.fileMatches(destination, count: size))
        let growthMiB = Double(after - before) / 1024
        print(
            "MEASURE download \(mebibytes) MiB: peak RSS \(before / 1024) -> \(after / 1024) MiB (growth \(String(format: "%.1f", growthMiB)) MiB, peak reset: \(canResetPeak))"
        )
        XCTAssertLessThan(growthMiB, 200)
        try? FileManager.default.removeItem(at: destination)
    }
}
