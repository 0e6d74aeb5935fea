import CurlTransport
import Foundation
import TestServers
import XCTest

/// libcurl must not be loaded until the first request (a stubbed call must not pay ~7 ms for it).
///
/// Other tests of this process may already have loaded it, so the check runs in a fresh copy of
/// the test binary, started with this one test and `MOYAKIT_LOADING_PROBE=1`.
final class TransportLibraryLoadingTests: XCTestCase {
    private static let probeVariable = "MOYAKIT_LOADING_PROBE"

    func testLibcurlIsLoadedOnFirstRequestOnly() throws {
        if ProcessInfo.processInfo.environment[Self.probeVariable] == "1" {
            return try probe()
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["CurlTransportTests.TransportLibraryLoadingTests/testLibcurlIsLoadedOnFirstRequestOnly"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.probeVariable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let probeLines = text.split(separator: "\n").filter { $0.hasPrefix("PROBE ") }
        XCTAssertEqual(
            probeLines, ["PROBE at start: false", "PROBE after Session(): false", "PROBE after a request: true"], text)
        XCTAssertEqual(child.terminationStatus, 0, text)
    }

    private func probe() throws {
        print("PROBE at start: \(Self.libcurlIsMapped())")
        let session = Session()
        let server = try HTTPTestServer()
        defer { server.stop() }
        print("PROBE after Session(): \(Self.libcurlIsMapped())")
        XCTAssertEqual(try response(to: makeRequest(server.url("/get")), session: session).head.statusCode, 200)
        print("PROBE after a request: \(Self.libcurlIsMapped())")
    }

    private static func libcurlIsMapped() -> Bool {
        ProcessInspection.isLibraryMapped("libcurl")
    }
}
