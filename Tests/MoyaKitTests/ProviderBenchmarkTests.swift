import Foundation
import MoyaKit
import TestSupport
import XCTest

/// Figures for the record, printed as `MEASURE …` lines: loopback GET latency through
/// `MoyaProvider` against the curl CLI, and peak memory of 1 GiB transfers through the provider.
/// Only the memory bounds are asserted. Meaningful in a release build:
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

    func testLoopbackGETLatencyAgainstCurl() async throws {
        for _ in 0..<20 { _ = try await provider.request(.get) }   // warm up: libcurl loaded, connection open
        var latencies: [Double] = []
        for _ in 0..<requestCount {
            let start = DispatchTime.now().uptimeNanoseconds
            let response = try await provider.request(.get)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            XCTAssertEqual(response.statusCode, 200)
        }
        print("MEASURE MoyaProvider GET /get, \(requestCount) sequential requests: \(Self.summary(latencies))")
        // The connection is reused: only the warm-up opened one.
        XCTAssertEqual(server.acceptedConnectionCount, 1)

        guard let curlTimes = try curlTimes(server.url("/get"), count: requestCount + 20) else {
            throw XCTSkip("curl is not installed")
        }
        // curl's first transfers connect; compare the same steady state.
        let steady = Array(curlTimes.dropFirst(20)).map { $0 * 1000 }
        print("MEASURE curl -w %{time_total}, \(steady.count) transfers in one run (connection reused): \(Self.summary(steady))")
        let ratio = Self.mean(latencies) / max(Self.mean(steady), 0.000_001)
        print("MEASURE MoyaProvider / curl mean latency ratio: \(String(format: "%.2f", ratio))")
    }

    func testLargeDownloadThroughTheProviderKeepsMemoryFlat() throws {
        let size = Self.transferMiB * 1024 * 1024
        let destination = try makeTemporaryFolder().appendingPathComponent("large.bin")
        let (response, growthMiB, seconds) = try measurePeakMemory {
            try self.response(.download(bytes: size, destination: destination), with: provider, timeout: 600)
        }
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertTrue(response.data.isEmpty)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int, size)
        print("MEASURE MoyaProvider download \(Self.transferMiB) MiB in \(String(format: "%.2f", seconds)) s "
              + "(\(String(format: "%.0f", Double(Self.transferMiB) / seconds)) MiB/s): peak RSS growth \(String(format: "%.1f", growthMiB)) MiB")
        XCTAssertLessThan(growthMiB, 100)
    }

    func testLargeUploadThroughTheProviderKeepsMemoryFlat() throws {
        let size = Self.transferMiB * 1024 * 1024
        let file = try makeTemporaryFolder().appendingPathComponent("large-upload.bin")
        try Self.writeTestBytes(count: size, to: file)
        let (response, growthMiB, seconds) = try measurePeakMemory {
            try self.response(.upload(file: file), with: provider, timeout: 600)
        }
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(server.receivedRequests.last?.bodyLength, size)
        print("MEASURE MoyaProvider upload \(Self.transferMiB) MiB in \(String(format: "%.2f", seconds)) s "
              + "(\(String(format: "%.0f", Double(Self.transferMiB) / seconds)) MiB/s): peak RSS growth \(String(format: "%.1f", growthMiB)) MiB")
        XCTAssertLessThan(growthMiB, 100)
    }

    // MARK: - Helpers

    /// Runs `body` and returns its result, how much the peak resident memory grew (MiB) and the time.
    private func measurePeakMemory<Result>(_ body: () throws -> Result) throws -> (Result, Double, Double) {
        // Writing 5 to clear_refs resets the peak to the current size, so earlier tests don't hide growth.
        let canResetPeak = ProcessInspection.resetPeakMemory()
        let before = try XCTUnwrap(ProcessInspection.statusKiB(canResetPeak ? "VmHWM" : "VmRSS"))
        let start = Date()
        let result = try body()
        let seconds = Date().timeIntervalSince(start)
        let after = try XCTUnwrap(ProcessInspection.statusKiB("VmHWM"))
        print("MEASURE peak RSS \(before / 1024) -> \(after / 1024) MiB (peak reset: \(canResetPeak))")
        return (result, Double(after - before) / 1024, seconds)
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

    /// The `time_total` of each of `count` transfers of `url` made by one curl run; nil without curl.
    private func curlTimes(_ url: URL, count: Int) throws -> [Double]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--noproxy", "*", "--write-out", "%{time_total}\\n"]
            + Array(repeating: ["--output", "/dev/null", url.absoluteString], count: count).flatMap { $0 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return text.split(separator: "\n").compactMap { Double($0) }
    }

    private static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// `mean … ms, median …, p90 …, min …, max …`.
    private static func summary(_ milliseconds: [Double]) -> String {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return "no values" }
        let at = { (fraction: Double) in sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] }
        let format = { (value: Double) in String(format: "%.3f", value) }
        return "mean \(format(mean(sorted))) ms, median \(format(at(0.5))), p90 \(format(at(0.9))), "
            + "min \(format(sorted[0])), max \(format(sorted[sorted.count - 1]))"
    }
}
