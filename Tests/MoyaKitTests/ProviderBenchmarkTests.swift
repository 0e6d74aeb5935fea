import Foundation
import MoyaKit
import TestServers
import XCTest

/// Connection reuse over sequential GETs, and peak memory of 1 GiB transfers through
/// `MoyaProvider`, measured by the process itself and asserted under a ceiling (the figures are
/// also printed as `MEASURE …` lines). Speed, and the comparison with the curl CLI, are
/// `make bench`'s (scripts/bench-scale.py, scripts/bench-memory.py). Meaningful in a release build:
/// `swift test -c release -Xswiftc -enable-testing --filter ProviderBenchmarkTests`.
/// MOYAKIT_BIG_TRANSFER_MIB sets the transfer size (default 1024).
final class ProviderBenchmarkTests: HTTPBinTestCase {
    // The server shares the process: it must not hold the uploaded body in memory.
    override class var bodyRecordingLimit: Int { 0 }

    private let provider = MoyaProvider<HTTPBin>()
    private let requestCount = 200

    private static var transferMiB: Int {
        Int(ProcessInfo.processInfo.environment["MOYAKIT_BIG_TRANSFER_MIB"] ?? "") ?? 1024
    }

    /// Sequential GETs share one connection. How fast they are, against curl, is `make bench`'s
    /// to measure (scripts/bench-scale.py), not a test's.
    func testSequentialGETsReuseOneConnection() async throws {
        for _ in 0..<requestCount {
            let response = try await provider.request(.get)
            XCTAssertEqual(response.statusCode, 200)
        }
        XCTAssertEqual(server.acceptedConnectionCount, 1)
        XCTAssertEqual(server.receivedRequests.count, requestCount)
    }

    func testLargeDownloadThroughTheProviderKeepsMemoryFlat() throws {
        let size = Self.transferMiB * 1024 * 1024
        let destination = try makeTemporaryFolder().appendingPathComponent("large.bin")
        let (response, growthMiB) = try measurePeakMemory {
            try self.response(.download(bytes: size, destination: destination), with: provider, timeout: 600)
        }
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertTrue(response.data.isEmpty)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int, size)
        print(
            "MEASURE MoyaProvider download \(Self.transferMiB) MiB: peak RSS growth \(String(format: "%.1f", growthMiB)) MiB"
        )
        XCTAssertLessThan(growthMiB, 100)
    }

    func testLargeUploadThroughTheProviderKeepsMemoryFlat() throws {
        let size = Self.transferMiB * 1024 * 1024
        let file = try makeTemporaryFolder().appendingPathComponent("large-upload.bin")
        try Self.writeTestBytes(count: size, to: file)
        let (response, growthMiB) = try measurePeakMemory {
            try self.response(.upload(file: file), with: provider, timeout: 600)
        }
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(server.receivedRequests.last?.bodyLength, size)
        print(
            "MEASURE MoyaProvider upload \(Self.transferMiB) MiB: peak RSS growth \(String(format: "%.1f", growthMiB)) MiB"
        )
        XCTAssertLessThan(growthMiB, 100)
    }

    // MARK: - Shared by the tests above

    /// Runs `body` and returns its result and how much the peak resident memory grew (MiB).
    private func measurePeakMemory<Result>(_ body: () throws -> Result) throws -> (Result, Double) {
        // Writing 5 to clear_refs resets the peak to the current size, so earlier tests don't hide growth.
        let canResetPeak = ProcessInspection.resetPeakMemory()
        let before = try XCTUnwrap(ProcessInspection.statusKiB(canResetPeak ? "VmHWM" : "VmRSS"))
        let result = try body()
        let after = try XCTUnwrap(ProcessInspection.statusKiB("VmHWM"))
        print("MEASURE peak RSS \(before / 1024) -> \(after / 1024) MiB (peak reset: \(canResetPeak))")
        return (result, Double(after - before) / 1024)
    }

    private static func writeTestBytes(count: Int, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var offset = 0
        while offset < count {
            let length = min(256 * 1024, count - offset)
            try handle.write(contentsOf: TestBytes.withBytes(offset: offset, count: length) { Data($0) })
            offset += length
        }
    }
}
