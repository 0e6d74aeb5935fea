import Foundation
import MoyaKit
import TestServers
import XCTest

/// The cURL command `NetworkLoggerPlugin` logs, run with the real `curl` binary, must make the
/// request MoyaKit made: same method, target, headers and body on the server.
final class ProviderIntegrationCURLTests: HTTPBinTestCase {
    private static let curlPath = ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    func testPlainGetWithQueryAndHeaders() throws {
        try assertCURLReplaysTheRequest(of: .search(query: "it's a \"quote\" & more", page: 1))
    }

    func testHead() throws {
        try assertCURLReplaysTheRequest(of: .anything(method: .head, task: .requestPlain))
    }

    func testEmptyBodies() throws {
        try assertCURLReplaysTheRequest(of: .anything(method: .post, task: .requestPlain))
        try assertCURLReplaysTheRequest(
            of: .anything(
                method: .post,
                task: .requestParameters(
                    parameters: ["q": "in the query"], encoding: URLEncoding.queryString)))
        try assertCURLReplaysTheRequest(of: .anything(method: .put, task: .requestData(Data())))
        try assertCURLReplaysTheRequest(of: .anything(method: .delete, task: .requestPlain))
    }

    func testJSONBody() throws {
        try assertCURLReplaysTheRequest(
            of: .anything(
                task: .requestParameters(
                    parameters: ["name": "O'Brien", "list": [1, 2]], encoding: JSONEncoding.default)))
    }

    func testFormBody() throws {
        try assertCURLReplaysTheRequest(
            of: .anything(
                method: .patch,
                task: .requestParameters(
                    parameters: ["a": "b c", "d": "@file"], encoding: URLEncoding.httpBody)))
    }

    func testBinaryBodyPipedThroughPrintf() throws {
        let bytes = Data([0, 1, 0x27, 0x5C, 0xFF, 10, 0x25, 0x62])
        try assertCURLReplaysTheRequest(
            of: .anything(
                method: .put, task: .requestData(bytes),
                headers: ["Content-Type": "application/octet-stream"]))
    }

    func testEmptyAndRepeatedLookingHeaderValues() throws {
        try assertCURLReplaysTheRequest(
            of: .anything(
                method: .get, task: .requestPlain,
                headers: ["X-Empty": "", "X-List": "a, b", "Accept": "text/plain"]))
    }

    func testFileUploads() throws {
        let file = try makeTemporaryFolder().appendingPathComponent("up load.txt")
        try Data("file body\n".utf8).write(to: file)
        try assertCURLReplaysTheRequest(of: .upload(file: file))
        try assertCURLReplaysTheRequest(of: .anything(method: .post, task: .uploadFile(file)))
        try assertCURLReplaysTheRequest(
            of: .anything(method: .patch, task: .uploadFile(file), headers: ["Content-Type": "text/plain"]))
    }

    func testMultipart() throws {
        let file = try makeTemporaryFolder().appendingPathComponent("photo.png")
        try Data([137, 80, 78, 71, 0, 1, 2]).write(to: file)
        try assertCURLReplaysTheRequest(
            of: .uploadParts([
                MultipartFormBodyPart(provider: .data(Data("plain text".utf8)), name: "text"),
                MultipartFormBodyPart(provider: .data(Data("@not-a-file".utf8)), name: "literal"),
                MultipartFormBodyPart(
                    provider: .file(file), name: "photo", fileName: "photo.png", mimeType: "image/png")
            ]))
    }

    // MARK: - Shared by the tests above

    /// Sends `target` through a provider with a logger, runs the logged cURL command, and compares
    /// the two requests the server received.
    private func assertCURLReplaysTheRequest(of target: HTTPBin, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let curl = try XCTUnwrap(Self.curlPath, "curl is not installed")
        let commands = EventLog()
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: .init(entry: { identifier, message, _ in identifier == "Request" ? message : "" }),
            output: { _, items in items.filter { !$0.isEmpty }.forEach(commands.append) },
            logOptions: .formatRequestAscURL,
            redactor: .none)
        let provider = MoyaProvider<HTTPBin>(plugins: [NetworkLoggerPlugin(configuration: configuration)])
        let before = server.receivedRequests.count
        let response = try response(target, with: provider, file: file, line: line)
        let command = try XCTUnwrap(commands.all.first, "nothing logged", file: file, line: line)
        XCTAssertTrue(command.contains("curl "), command, file: file, line: line)

        let output = try makeTemporaryFolder().appendingPathComponent("curl-output")
        let curlWithOptions = "\(curl) --silent --noproxy '*' --output \(output.path) "
        let status = try run(
            command.replacingOccurrences(of: "curl ", with: curlWithOptions, options: .anchored)
                .replacingOccurrences(of: "| curl ", with: "| " + curlWithOptions))
        XCTAssertEqual(status, 0, "curl failed: \(command)", file: file, line: line)
        let received = Array(server.receivedRequests.dropFirst(before))
        XCTAssertEqual(received.count, 2, command, file: file, line: line)
        guard received.count == 2 else { return }
        let (moya, replayed) = (received[0], received[1])
        XCTAssertEqual(replayed.method, moya.method, command, file: file, line: line)
        XCTAssertEqual(replayed.target, moya.target, command, file: file, line: line)
        XCTAssertEqual(comparableHeaders(replayed), comparableHeaders(moya), command, file: file, line: line)
        if moya.value(of: "Content-Type")?.hasPrefix("multipart/") == true {
            // Boundaries differ: compare the parts the server parsed.
            let moyaParts = try XCTUnwrap(EchoedRequest(from: response.data).parts, file: file, line: line)
            let replayedParts = try XCTUnwrap(
                EchoedRequest(from: Data(contentsOf: output)).parts, file: file, line: line)
            XCTAssertEqual(replayedParts.map(\.name), moyaParts.map(\.name), file: file, line: line)
            XCTAssertEqual(replayedParts.map(\.filename), moyaParts.map(\.filename), file: file, line: line)
            XCTAssertEqual(replayedParts.map(\.contentType), moyaParts.map(\.contentType), file: file, line: line)
            XCTAssertEqual(replayedParts.map(\.sha256), moyaParts.map(\.sha256), file: file, line: line)
        } else {
            XCTAssertEqual(replayed.body, moya.body, command, file: file, line: line)
        }
    }

    /// The fields to compare: all but the ones curl adds of its own (`User-Agent`), and the
    /// multipart boundary, which is random.
    private func comparableHeaders(_ request: ReceivedRequest) -> [String] {
        request.headers.compactMap { field in
            let name = field.name.lowercased()
            guard name != "user-agent" else { return nil }
            if request.value(of: "Content-Type")?.hasPrefix("multipart/") == true,
                name == "content-type" || name == "content-length"
            {
                return "\(name): multipart"
            }
            return "\(name): \(field.value)"
        }.sorted()
    }

    private func run(_ command: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
