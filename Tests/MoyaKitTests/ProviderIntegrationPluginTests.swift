import Foundation
import MoyaKit
import TestServers
import XCTest

/// Plugins in the real pipeline: what they change reaches the server, what they see came from it.
final class ProviderIntegrationPluginTests: HTTPBinTestCase {
    func testAccessTokenPluginSendsEachScheme() throws {
        let provider = MoyaProvider<HTTPBin>(plugins: [AccessTokenPlugin { _ in "s3cr3t" }])
        let schemes: [(AuthorizationType?, [String])] = [
            (.bearer, ["Bearer s3cr3t"]), (.basic, ["Basic s3cr3t"]), (.custom("Token"), ["Token s3cr3t"]), (nil, [])
        ]
        for (scheme, expected) in schemes {
            let response = try response(.headers(authorization: scheme), with: provider)
            XCTAssertEqual(server.receivedRequests.last?.values(of: "Authorization"), expected)
            // The request in the response is the one sent, plugin changes included.
            XCTAssertEqual(response.request?.value(forHTTPHeaderField: "Authorization"), expected.first)
        }
    }

    func testAccessTokenPluginGetsTheWrappedTargetOfAMultiTarget() throws {
        let seen = EventLog()
        let provider = MoyaProvider<MultiTarget>(plugins: [
            AccessTokenPlugin { target in
                seen.append("\(type(of: target))")
                return "multi"
            }
        ])
        _ = try response(MultiTarget(HTTPBin.headers(authorization: .bearer)), with: provider)
        XCTAssertEqual(try onlyReceivedRequest().values(of: "Authorization"), ["Bearer multi"])
        XCTAssertEqual(seen.all, ["HTTPBin"])
    }

    func testCredentialsPluginAuthenticates() throws {
        let right = MoyaProvider<HTTPBin>(plugins: [
            CredentialsPlugin { _ in Credential(user: "user", password: "p@ss:w0rd") }
        ])
        let response = try response(.basicAuth(user: "user", password: "p@ss:w0rd"), with: right)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try response.mapString(atKeyPath: "user"), "user")

        let wrong = MoyaProvider<HTTPBin>(plugins: [
            CredentialsPlugin { _ in Credential(user: "user", password: "nope") }
        ])
        XCTAssertEqual(try self.response(.basicAuth(user: "user", password: "p@ss:w0rd"), with: wrong).statusCode, 401)

        let none = MoyaProvider<HTTPBin>(plugins: [CredentialsPlugin { _ in nil }])
        XCTAssertEqual(try self.response(.basicAuth(user: "user", password: "p@ss:w0rd"), with: none).statusCode, 401)
        XCTAssertEqual(server.receivedRequests.map { $0.values(of: "Authorization").count }, [1, 1, 0])
    }

    /// As `URLCredential` does under Moya, a digest credential answers the server's challenge:
    /// one round trip more, the password never sent.
    func testCredentialsPluginAnswersADigestChallenge() throws {
        for algorithm in ["MD5", "SHA-256"] {
            let right = MoyaProvider<HTTPBin>(plugins: [
                CredentialsPlugin { _ in Credential(user: "user", password: "p4ss", scheme: .digest) }
            ])
            let response = try response(.digestAuth(user: "user", password: "p4ss", algorithm: algorithm), with: right)
            XCTAssertEqual(response.statusCode, 200, algorithm)
            XCTAssertEqual(try response.mapString(atKeyPath: "user"), "user")
            XCTAssertNil(response.request?.value(forHTTPHeaderField: "Authorization"))
        }
        let wrong = MoyaProvider<HTTPBin>(plugins: [
            CredentialsPlugin { _ in Credential(user: "user", password: "nope", scheme: .digest) }
        ])
        XCTAssertEqual(
            try response(.digestAuth(user: "user", password: "p4ss", algorithm: "MD5"), with: wrong).statusCode, 401)
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Authorization")?.prefix(7) ?? "-" },
            [
                "-", "Digest ", "-", "Digest ", "-", "Digest "
            ])
    }

    func testPluginsRunInOrderAroundARealExchange() throws {
        let log = EventLog()
        let provider = MoyaProvider<HTTPBin>(plugins: [
            RecordingPlugin(log: log, name: "first"), RecordingPlugin(log: log, name: "second")
        ])
        let response = try response(.get, with: provider)
        XCTAssertEqual(
            log.all,
            [
                "first.prepare", "second.prepare",
                "first.willSend yes", "second.willSend yes",
                "first.didReceive 200", "second.didReceive 200",
                "first.process 200", "second.process 200"
            ])
        XCTAssertEqual(try onlyReceivedRequest().values(of: "X-Prepared"), ["yes"])
        XCTAssertEqual(response.request?.value(forHTTPHeaderField: "X-Prepared"), "yes")
    }

    func testPluginsHearOfNetworkFailures() throws {
        let log = EventLog()
        let provider = MoyaProvider<HTTPBin>(plugins: [RecordingPlugin(log: log)])
        let error = try error(.drop, with: provider)
        XCTAssertEqual(error.transportError?.kind, .connectionLost)
        XCTAssertEqual(
            log.all, ["plugin.prepare", "plugin.willSend yes", "plugin.didReceive failure", "plugin.process failure"])
    }

    func testNetworkActivityPluginReportsBeganAndEnded() throws {
        let log = EventLog()
        let plugin = NetworkActivityPlugin { change, target in log.append("\(change) \(target.path)") }
        let provider = MoyaProvider<HTTPBin>(plugins: [plugin])
        _ = try response(.get, with: provider)
        _ = try error(.drop, with: provider)
        XCTAssertEqual(log.all, ["began /get", "ended /get", "began /drop", "ended /drop"])

        // A cancelled request ends too.
        let done = expectation(description: "cancelled")
        let token = provider.request(.delay(milliseconds: 5_000)) { _ in done.fulfill() }
        waitForRequests(3)
        token.cancel()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.all.suffix(2), ["began /delay/5000", "ended /delay/5000"])
    }

    func testNetworkLoggerLogsTheRealExchange() throws {
        let lines = EventLog()
        let configuration = NetworkLoggerPlugin.Configuration(
            formatter: .init(entry: { identifier, message, _ in "\(identifier): \(message)" }),
            output: { _, items in items.forEach(lines.append) },
            logOptions: .verbose)
        let provider = MoyaProvider<HTTPBin>(plugins: [NetworkLoggerPlugin(configuration: configuration)])
        _ = try response(
            .anything(
                method: .post, task: .requestData(Data("ping".utf8)),
                headers: ["Authorization": "Bearer hidden-token", "Content-Type": "text/plain"]), with: provider)
        let url = server.url("/anything").absoluteString
        let log = lines.all
        XCTAssertEqual(log.count, 6, "\(log)")
        XCTAssertEqual(log.first, "Request: \(url)")
        XCTAssertTrue(
            log.contains(
                #"Request Headers: ["Authorization": "Bearer <redacted>", "Content-Type": "text/plain", "X-Client": "MoyaKit-tests"]"#
            ),
            "\(log)")
        XCTAssertTrue(log.contains("Request Body: ping"))
        XCTAssertTrue(log.contains("HTTP Request Method: POST"))
        let responseLine = try XCTUnwrap(log.first { $0.hasPrefix("Response: ") })
        XCTAssertTrue(responseLine.hasPrefix("Response: HTTP/1.1 200 \(url) ["), responseLine)
        XCTAssertTrue(responseLine.contains(#""Content-Type": "application/json""#), responseLine)
        let body = try XCTUnwrap(log.last)
        XCTAssertTrue(body.hasPrefix(#"Response Body: {"method":"POST""#), body)
        // The request's secret header is hidden (the echoed body repeats it: bodies are logged as they are).
        XCTAssertFalse(log.dropLast().joined().contains("hidden-token"))
    }
}
