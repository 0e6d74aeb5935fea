import Foundation
import MoyaKit
import TestServers
import XCTest

/// A provider over HTTP/2 against nginx (the transport's own HTTP/2 tests are in
/// CurlTransportTests). Skips when nginx or openssl is not installed; `make test` installs nginx-light.
final class ProviderHTTP2Tests: XCTestCase {
    private var nginx: NginxHTTP2Fixture!
    private var server: NginxTestServer { nginx.server }

    override func setUpWithError() throws {
        nginx = try NginxHTTP2Fixture()
    }

    override func tearDown() {
        nginx?.server.stop()
    }

    func testProviderOverHTTP2() throws {
        let target = StaticFile(baseURL: server.secureBaseURL, path: "/hello.json")
        let provider = MoyaProvider<StaticFile>(session: nginx.session(.automatic))
        let result = try XCTUnwrap(send(target, with: provider, timeout: 20))
        let moyaResponse = try result.get()
        XCTAssertEqual(moyaResponse.statusCode, 200)
        XCTAssertEqual(moyaResponse.data, NginxTestServer.helloJSON)
        XCTAssertEqual(moyaResponse.response?.httpVersion, "HTTP/2")
    }
}

/// A GET of one static file, as a Moya target.
private struct StaticFile: TargetType {
    let baseURL: URL
    let path: String
    var method: MoyaKit.Method { .get }
    var task: Task { .requestPlain }
    var validationType: ValidationType { .successCodes }
    var headers: [String: String]? { nil }
}
