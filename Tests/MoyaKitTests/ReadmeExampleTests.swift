import MoyaKit
import Synchronization
import XCTest

// The code of README.md's "MoyaKit as a library" section, verbatim between the BEGIN/END marks,
// so every snippet there compiles. It sits in a namespace because this test module has a
// `GitHub` of its own.
enum Readme {
    // BEGIN README: target
    enum GitHub: TargetType {
        case zen
        case userProfile(String)

        var baseURL: URL { URL(string: "https://api.github.com")! }

        var path: String {
            switch self {
            case .zen: return "/zen"
            case .userProfile(let name): return "/users/\(name)"
            }
        }

        var method: Method { .get }

        var task: Task { .requestPlain }

        var headers: [String: String]? { ["Accept": "application/vnd.github+json"] }

        var validationType: ValidationType { .successCodes }

        var sampleData: Data {
            switch self {
            case .zen: return Data("Half measures are as bad as nothing at all.".utf8)
            case .userProfile(let name): return Data(#"{"login": "\#(name)", "id": 100}"#.utf8)
            }
        }
    }
    // END README: target
}

extension Readme {
    /// The live call (api.github.com is not reached from the tests: this only has to compile).
    static func liveCall() async throws -> String {
        // BEGIN README: live
        let provider = MoyaProvider<GitHub>(plugins: [NetworkLoggerPlugin()])
        let response = try await provider.request(.zen)
        let zen = try response.mapString()
        // END README: live
        return zen
    }

    static func callbackCall(done: @escaping @Sendable (String) -> Void) {
        // BEGIN README: callback
        let provider = MoyaProvider<GitHub>()
        provider.request(.userProfile("ashfurrow")) { result in
            switch result {
            case .success(let response):
                done("\(response.statusCode): \(response.data.count) bytes")
            case .failure(let error):
                done("failed: \(error)")
            }
        }
        // END README: callback
    }

    static func blockingCall(_ provider: MoyaProvider<GitHub>) -> Result<Response, MoyaError>? {
        // BEGIN README: blocking
        let outcome = Mutex<Result<Response, MoyaError>?>(nil)  // import Synchronization
        RequestLatch.wait { latch in
            provider.request(.zen) { result in
                outcome.withLock { $0 = result }
                latch.signal()
            }
        }
        // END README: blocking
        return outcome.withLock { $0 }
    }

    static func stubbedCall() async throws -> String {
        // BEGIN README: stub
        let stubbed = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
        let login = try await stubbed.request(.userProfile("ashfurrow"))
            .filterSuccessfulStatusCodes()
            .mapString(atKeyPath: "login")  // "ashfurrow", from sampleData
        // END README: stub
        return login
    }
}

extension Readme {
    // BEGIN README: interceptor-authenticator
    final class TokenAuthenticator: Authenticator {
        struct Credential: AuthenticationCredential {
            var accessToken: String
            var expiresAt: Date
            var requiresRefresh: Bool { expiresAt < Date() }
        }

        func apply(_ credential: Credential, to urlRequest: inout URLRequest) {
            urlRequest.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        }

        func refresh(
            _ credential: Credential, for session: Session,
            completion: @escaping @Sendable (Result<Credential, any Error>) -> Void
        ) {
            // Ask your token endpoint (with another provider), then:
            completion(.success(Credential(accessToken: "new-token", expiresAt: Date() + 3600)))
        }

        func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: Credential) -> Bool {
            urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer \(credential.accessToken)"
        }
    }
    // END README: interceptor-authenticator

    /// The provider of the interceptor example (api.github.com is not reached: `zen` only compiles).
    static func interceptedProvider() -> MoyaProvider<GitHub> {
        // BEGIN README: interceptor-provider
        let authentication = AuthenticationInterceptor(
            authenticator: TokenAuthenticator(),
            credential: .init(accessToken: "first-token", expiresAt: Date() + 3600))
        let stamp = Adapter { request, _, completion in
            var stamped = request
            stamped.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-Id")
            completion(.success(stamped))
        }
        let provider = MoyaProvider<GitHub>(
            interceptor: Interceptor(adapters: [stamp], interceptors: [authentication, RetryPolicy(retryLimit: 3)]))
        // END README: interceptor-provider
        return provider
    }

    static func interceptedCall() async throws -> String {
        let provider = interceptedProvider()
        // BEGIN README: interceptor-call
        let zen = try await provider.request(.zen).mapString()
        // END README: interceptor-call
        return zen
    }
}

final class ReadmeExampleTests: XCTestCase {
    func testTheInterceptorExampleStampsAndAuthenticatesEveryRequest() throws {
        // The example's provider, its target pointed at nothing: the adapters run before the
        // connection fails, and the retry policy leaves a refused connection at three retries.
        let provider = Readme.interceptedProvider()
        let interceptor = try XCTUnwrap(provider.interceptor)
        let adapted = Mutex<URLRequest?>(nil)
        let request = try provider.endpoint(.zen).urlRequest()
        let done = expectation(description: "adapted")
        interceptor.adapt(request, for: .default) { result in
            adapted.withLock { $0 = try? result.get() }
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        let stamped = try XCTUnwrap(adapted.withLock { $0 })
        XCTAssertEqual(stamped.value(forHTTPHeaderField: "Authorization"), "Bearer first-token")
        XCTAssertEqual(stamped.value(forHTTPHeaderField: "X-Request-Id")?.count, 36)
        _ = Readme.interceptedCall
    }

    func testStubbedExampleAnswersFromSampleData() async throws {
        let login = try await Readme.stubbedCall()
        XCTAssertEqual(login, "ashfurrow")
    }

    func testBlockingExampleWaitsForTheAnswer() throws {
        let stubbed = MoyaProvider<Readme.GitHub>(stubClosure: MoyaProvider.delayedStub(0.05))
        guard case .success(let response) = try XCTUnwrap(Readme.blockingCall(stubbed)) else {
            return XCTFail("the call failed")
        }
        XCTAssertEqual(try response.mapString(), "Half measures are as bad as nothing at all.")
    }

    func testTheExampleTargetMakesTheDocumentedRequests() throws {
        let provider = MoyaProvider<Readme.GitHub>()
        let request = try provider.endpoint(.userProfile("ashfurrow")).urlRequest()
        XCTAssertEqual(request.url?.absoluteString, "https://api.github.com/users/ashfurrow")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/vnd.github+json")
        // The live snippets are compiled above; referencing them keeps them from being dead code.
        _ = Readme.liveCall
        _ = Readme.callbackCall
    }

    /// README.md holds the same code as the BEGIN/END blocks of this file.
    func testReadmeShowsThisFilesCode() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let readme = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let readmeText = try String(contentsOf: readme, encoding: .utf8)
        let source = try String(contentsOf: testFile, encoding: .utf8)
        for name in [
            "target", "live", "callback", "blocking", "stub", "interceptor-authenticator", "interceptor-provider",
            "interceptor-call"
        ] {
            let block = try XCTUnwrap(Self.block(named: name, in: source), name)
            XCTAssertTrue(readmeText.contains(block), "README.md lacks the '\(name)' snippet:\n\(block)")
        }
    }

    /// The lines between `// BEGIN README: name` and `// END README: name`, indentation removed.
    private static func block(named name: String, in source: String) -> String? {
        let lines = source.components(separatedBy: "\n")
        guard
            let start = lines.firstIndex(where: {
                $0.trimmingCharacters(in: .whitespaces) == "// BEGIN README: \(name)"
            }),
            let end = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// END README: \(name)" }),
            start < end
        else { return nil }
        let body = lines[(start + 1)..<end]
        let indent = body.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return body.map { $0.isEmpty ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
    }
}
