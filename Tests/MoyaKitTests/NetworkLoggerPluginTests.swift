import Foundation
import MoyaKit
import XCTest

final class NetworkLoggerPluginTests: XCTestCase {
    private func makeLogger(
        _ options: NetworkLoggerPlugin.Configuration.LogOptions, redactor: SecretRedactor = SecretRedactor(),
        log: EventLog
    ) -> NetworkLoggerPlugin {
        let formatter = NetworkLoggerPlugin.Configuration.Formatter(entry: { identifier, message, _ in
            "\(identifier): \(message)"
        })
        return NetworkLoggerPlugin(
            configuration: .init(
                formatter: formatter, output: { _, items in items.forEach(log.append) },
                logOptions: options, redactor: redactor))
    }

    func testVerboseLogOfAStubbedRequest() {
        let log = EventLog()
        let provider = MoyaProvider<GitHub>(
            stubClosure: MoyaProvider.immediatelyStub, plugins: [makeLogger(.verbose, log: log)])
        _ = send(.userRepositories("moya"), with: provider)
        XCTAssertEqual(
            log.all,
            [
                "Request: https://api.github.com/users/moya/repos?sort=pushed",
                #"Request Headers: ["Content-Type": "application/json"]"#,
                "HTTP Request Method: GET",
                "Response: Received empty network response for userRepositories(\"moya\").",
                #"Response Body: [{"name": "Repo Name"}]"#
            ])
    }

    func testDefaultOptionsAndResponseHeadAndErrors() {
        let log = EventLog()
        let head = HTTPResponseHead(
            statusCode: 404, headers: [.contentType: "text/plain", .setCookie: "session=abc"],
            url: URL(string: "https://api.github.com/zen"))
        let provider = MoyaProvider<TestTarget>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacingSample(.response(head, Data("missing".utf8)))
            }, stubClosure: MoyaProvider.immediatelyStub, plugins: [makeLogger(.default, log: log)])
        let target = TestTarget(
            method: .post, task: .requestData(Data("body".utf8)), validationType: .successCodes,
            headers: ["Authorization": "Bearer abc.def"])
        _ = send(target, with: provider)
        XCTAssertEqual(
            log.all,
            [
                "Request: https://example.com/api/things",
                #"Request Headers: ["Authorization": "Bearer <redacted>"]"#,
                "HTTP Request Method: POST",
                #"Response: HTTP/1.1 404 https://api.github.com/zen ["Content-Type": "text/plain", "Set-Cookie": "<redacted>"]"#
            ])
    }

    func testErrorBodyAndTransportErrors() {
        let log = EventLog()
        let provider = MoyaProvider<TestTarget>(
            endpointClosure: { target in
                let sample: EndpointSampleResponse =
                    target.path == "/down"
                    ? .networkError(
                        TransportError(kind: .cannotConnect, message: "Failed to connect to example.com port 443"))
                    : .networkResponse(500, Data("boom".utf8))
                return MoyaProvider.defaultEndpointMapping(for: target).replacingSample(sample)
            }, stubClosure: MoyaProvider.immediatelyStub, plugins: [makeLogger([.errorResponseBody], log: log)])
        _ = send(TestTarget(validationType: .successCodes), with: provider)
        _ = send(TestTarget(path: "/down"), with: provider)
        XCTAssertEqual(
            Array(log.all.dropFirst(1).prefix(2)),
            [
                "Response: Received empty network response for TestTarget(baseURL: https://example.com/api, path: \"/things\", method: GET, task: MoyaKit.Task.requestPlain, validationType: MoyaKit.ValidationType.successCodes, headers: nil, sampleData: 2 bytes, authorizationType: nil).",
                "Response Body: boom"
            ])
        XCTAssertEqual(
            log.all.last?.hasPrefix(
                "Error: Error calling TestTarget(baseURL: https://example.com/api, path: \"/down\""), true)
        XCTAssertEqual(log.all.last?.hasSuffix(" : Failed to connect to example.com port 443"), true)
    }

    func testCURLFormatWithSecretsRedacted() {
        let log = EventLog()
        let redactor = SecretRedactor(secretValues: ["hunter2"])
        let provider = MoyaProvider<TestTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [
                AccessTokenPlugin { _ in "t0k3n" }, makeLogger([.formatRequestAscURL], redactor: redactor, log: log)
            ])
        let target = TestTarget(
            method: .post,
            task: .requestParameters(
                parameters: ["password": "hunter2", "user": "it's me"], encoding: JSONEncoding.default),
            authorizationType: .bearer)
        _ = send(target, with: provider)
        XCTAssertEqual(
            log.all.first,
            #"Request: curl --compressed -H 'Content-Type: application/json' -H 'Authorization: Bearer <redacted>' --data-binary '{"password":"<redacted>","user":"it'\''s me"}' 'https://example.com/api/things'"#
        )
    }
}
