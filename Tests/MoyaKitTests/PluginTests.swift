import Foundation
import MoyaKit
import XCTest

final class PluginTests: XCTestCase {
    func testAccessTokenPluginUsesTheTargetsScheme() {
        let plugin = AccessTokenPlugin { _ in "t0k3n" }
        let request = URLRequest(url: URL(string: "https://example.com")!)
        let cases: [(AuthorizationType?, String?)] = [
            (.bearer, "Bearer t0k3n"), (.basic, "Basic t0k3n"), (.custom("Token"), "Token t0k3n"), (nil, nil)
        ]
        for (type, expected) in cases {
            let target = TestTarget(authorizationType: type)
            XCTAssertEqual(plugin.prepare(request, target: target).value(forHTTPHeaderField: "Authorization"), expected)
            XCTAssertEqual(
                plugin.prepare(request, target: MultiTarget(target)).value(forHTTPHeaderField: "Authorization"),
                expected)
        }
        XCTAssertNil(plugin.prepare(request, target: GitHub.zen).value(forHTTPHeaderField: "Authorization"))
        // A wrapped target that is not authorizable: the wrapper is not either.
        XCTAssertNil(MultiTarget(GitHub.zen).accessTokenAuthorizable)
        XCTAssertNil(
            plugin.prepare(request, target: MultiTarget(GitHub.zen)).value(forHTTPHeaderField: "Authorization"))
    }

    func testAccessTokenPluginSeesTheWrappedTarget() {
        let plugin = AccessTokenPlugin { target in (target as? TestTarget)?.path ?? "wrapper" }
        let request = URLRequest(url: URL(string: "https://example.com")!)
        let prepared = plugin.prepare(
            request, target: MultiTarget(TestTarget(path: "/inner", authorizationType: .bearer)))
        XCTAssertEqual(prepared.value(forHTTPHeaderField: "Authorization"), "Bearer /inner")
    }

    func testCredentialsPluginSetsBasicAuthorizationUnlessPresent() {
        let plugin = CredentialsPlugin { _ in Credential(user: "moya", password: "s3cret") }
        var request = URLRequest(url: URL(string: "https://example.com")!)
        XCTAssertEqual(
            plugin.prepare(request, target: GitHub.zen).value(forHTTPHeaderField: "Authorization"),
            "Basic bW95YTpzM2NyZXQ=")
        request.setValue("Bearer other", forHTTPHeaderField: "Authorization")
        XCTAssertEqual(
            plugin.prepare(request, target: GitHub.zen).value(forHTTPHeaderField: "Authorization"), "Bearer other")
        XCTAssertNil(
            CredentialsPlugin { _ in nil }.prepare(URLRequest(url: URL(string: "https://e.com")!), target: GitHub.zen)
                .value(forHTTPHeaderField: "Authorization"))
    }

    func testNetworkActivityPluginReportsBeganThenEnded() {
        let log = EventLog()
        let plugin = NetworkActivityPlugin { change, target in log.append("\(change) \(target)") }
        let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub, plugins: [plugin])
        _ = send(.zen, with: provider)
        XCTAssertEqual(log.all, ["began zen", "ended zen"])
    }
}
