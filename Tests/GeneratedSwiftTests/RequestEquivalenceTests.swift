import Foundation
import MoyaKit
import XCTest

@testable import TestServers

/// For every example of every committed target file, the request the generated enum makes
/// through `MoyaProvider` is the request `moya-cli call` sends with the example's words, to the
/// same loopback server: method, target (path and query), every header but User-Agent, and the
/// body byte for byte (a multipart body part by part: its boundary is random); its base URL is the
/// one `moya-cli curl` prints, its `sampleData` the body `moya-cli call --stub` answers with, and each
/// `Samples` function the answer of `--stub --sample NAME`.
final class RequestEquivalenceTests: XCTestCase {
    var server: HTTPTestServer!
    var originalFolder = FileManager.default.currentDirectoryPath

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server?.stop()
        _ = FileManager.default.changeCurrentDirectoryPath(originalFolder)
    }

    func testGitHub() throws { try assertEquivalentExamples(of: "github", count: 25) }
    func testHTTPBin() throws { try assertEquivalentExamples(of: "httpbin", count: 51) }
    func testHTTPBinToken() throws { try assertEquivalentExamples(of: "httpbin-token", count: 2) }
    func testHTTPBinOAuth() throws { try assertEquivalentExamples(of: "httpbin-oauth", count: 4) }
    func testHostileNames() throws { try assertEquivalentExamples(of: "hostile-names", count: 12) }
    func testSelf() throws { try assertEquivalentExamples(of: "self", count: 1) }
    func testKeyed() throws { try assertEquivalentExamples(of: "keyed", count: 9) }
    func testKeywords() throws { try assertEquivalentExamples(of: "keywords", count: 12) }

    /// Sends each example of `api` both ways and compares what arrived; `count` says how many
    /// examples the file has, so an example lost on the way fails too.
    func assertEquivalentExamples(of api: String, count: Int) throws {
        let fixture = try XCTUnwrap(GeneratedFixture.all.first { $0.api == api })
        // A copy of the target file's folder: the files it names, and where downloads land.
        let files = try makeTemporaryFolder()
        let source = GeneratedBinary.repositoryRoot.appendingPathComponent(fixture.folder)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name), to: files.appendingPathComponent(name))
        }
        _ = FileManager.default.changeCurrentDirectoryPath(files.path)
        let examples = fixture.configuredExamples(files: files)
        XCTAssertEqual(examples.count, count, "\(api): examples")
        let samplesByCase = try sampleNames(of: api, in: files)
        var comparedSamples = 0
        let provider = MoyaProvider<Rebased>(plugins: [
            AccessTokenPlugin { target in GeneratedFixture.accessToken(for: (target as? Rebased)?.target ?? target) }
        ])
        for (target, arguments) in examples {
            // The enum first: a download never replaces a file, and moya-cli numbers its own instead.
            let beforeEnum = server.receivedRequests.count
            let sent = DispatchSemaphore(value: 0)
            _ = provider.request(Rebased(target: target, baseURL: server.baseURL), callbackQueue: .global()) { _ in
                sent.signal()
            }
            XCTAssertEqual(sent.wait(timeout: .now() + 30), .success, "\(api) \(arguments): no answer")

            let beforeCall = server.receivedRequests.count
            // A token the app obtains is given to moya-cli as --bearer, for the cases that send one.
            let authorized = target.accessTokenAuthorizable?.authorizationType != nil
            let called = try GeneratedBinary.run(
                ["call", api] + arguments + (authorized ? fixture.callOptions : []) + [
                    "--base-url", server.baseURL.absoluteString, "--targets", files.path
                ],
                in: files, environment: fixture.callEnvironment)
            XCTAssertFalse([64, 65, 70].contains(called.status), "call \(api) \(arguments): \(called.stderr)")

            // The base URL too, which --base-url replaced above: the URL `moya-cli curl` prints
            // without it starts with the enum's.
            let printed = try GeneratedBinary.run(
                ["curl", api] + arguments + (authorized ? fixture.callOptions : []) + ["--targets", files.path],
                in: files, environment: fixture.callEnvironment)
            let printedURL = String(decoding: printed.stdout, as: UTF8.self).split(separator: " ").last ?? ""
            XCTAssertTrue(
                printedURL.hasPrefix("'" + URL(target: target).absoluteString),
                "\(api) \(arguments): curl prints \(printedURL), the enum's URL is \(URL(target: target))")

            // sampleData is the body `moya-cli call --stub` answers with (a network error: none).
            let stubbed = try GeneratedBinary.run(
                ["call", api] + arguments + ["--stub", "--targets", files.path], in: files,
                environment: fixture.callEnvironment)
            var answered = stubbed.status == 1 || stubbed.status == 2 || stubbed.status == 6 ? Data() : stubbed.stdout
            if stubbed.stderr.hasPrefix("moya-cli: saved ") {  // a download: its body is in the file
                answered = try Data(
                    contentsOf: URL(fileURLWithPath: String(stubbed.stderr.dropFirst(16).dropLast())))
            }
            XCTAssertEqual(answered, target.sampleData, "\(api) \(arguments): sampleData; --stub: \(stubbed.stderr)")

            // Each named sample is the answer `moya-cli call --stub --sample NAME` gives.
            for name in samplesByCase[arguments[0]] ?? [] where name != "default" {
                let stubbedSample = try GeneratedBinary.run(
                    ["call", api] + arguments + ["--stub", "--sample", name, "--targets", files.path], in: files,
                    environment: fixture.callEnvironment)
                comparedSamples += 1
                switch GeneratedFixture.sample(named: name, for: target) {
                case .networkResponse(_, let data)?:
                    XCTAssertEqual(stubbedSample.stdout, data, "\(api) \(arguments) sample \(name)")
                case .networkError?:
                    XCTAssertTrue(
                        [1, 2, 6].contains(stubbedSample.status), "\(api) \(arguments) sample \(name): a network error")
                default:
                    XCTFail("\(api) \(arguments): no sample \(name) in Samples")
                }
            }

            // The first request of each (a redirect is followed by more).
            let received = server.receivedRequests
            guard beforeEnum < beforeCall, beforeCall < received.count else {
                XCTFail(
                    "\(api) \(arguments): a request is missing (\(beforeCall - beforeEnum) from the enum, \(received.count - beforeCall) from call)"
                )
                continue
            }
            XCTAssertEqual(
                Observed(received[beforeEnum]), Observed(received[beforeCall]),
                "\(api) \(arguments): the enum's request (first) differs from moya-cli call's")
        }
        let named = samplesByCase.values.joined().filter { $0 != "default" }
        XCTAssertEqual(comparedSamples > 0, !named.isEmpty, "\(api): named samples compared")
    }

    /// Each case's sample names, as `moya-cli list API --format json` gives them.
    func sampleNames(of api: String, in files: URL) throws -> [String: [String]] {
        let listed = try GeneratedBinary.run(["list", api, "--format", "json", "--targets", files.path], in: files)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any])
        let cases = try XCTUnwrap(document["cases"] as? [[String: Any]])
        var names: [String: [String]] = [:]
        for entry in cases {
            if let name = entry["name"] as? String { names[name] = entry["samples"] as? [String] ?? [] }
        }
        return names
    }

    /// What must be the same.
    struct Observed: Equatable, CustomStringConvertible {
        var method: String
        var target: String
        var headers: [String]
        var body: Data
        var parts: [[String]]?

        init(_ request: ReceivedRequest) {
            method = request.method
            target = request.target
            var contentType: String?
            headers = request.headers.compactMap { field in
                let name = field.name.lowercased()
                // moya-cli sends User-Agent: moya-cli/VERSION; an app sends its own.
                if name == "user-agent" { return nil }
                var value = field.value
                if name == "content-type" {
                    contentType = value
                    // A multipart boundary is random; the type and the parts are what matter.
                    if let range = value.range(of: "; boundary=") { value = String(value[..<range.lowerBound]) }
                }
                return name + ": " + value
            }.sorted()
            if let parsed = MultipartParser.parts(of: request.body, contentType: contentType) {
                parts = parsed.map {
                    [$0.name ?? "-", $0.fileName ?? "-", $0.contentType ?? "-", $0.content.base64EncodedString()]
                }
                // The length counts the boundary too.
                headers.removeAll { $0.hasPrefix("content-length: ") }
                body = Data()
            } else {
                body = request.body
            }
        }

        var description: String {
            "\(method) \(target)\n  \(headers.joined(separator: "\n  "))\n  body: "
                + (parts.map { "\($0)" } ?? String(decoding: body, as: UTF8.self))
        }
    }
}
