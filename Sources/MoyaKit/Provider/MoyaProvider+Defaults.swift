#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
extension MoyaProvider {
    /// The endpoint Moya makes by default: the target's URL, method, task and headers, and a
    /// `200` sample response with the target's sample data.
    @Sendable public static func defaultEndpointMapping(for target: Target) -> Endpoint {
        Endpoint(
            url: URL(target: target).absoluteString,
            sampleResponseClosure: { .networkResponse(200, target.sampleData) },
            method: target.method,
            task: target.task,
            httpHeaderFields: target.headers)
    }

    /// The request Moya makes by default: `endpoint.urlRequest()`.
    @Sendable public static func defaultRequestMapping(for endpoint: Endpoint, closure: RequestResultClosure) {
        do {
            closure(.success(try endpoint.urlRequest()))
        } catch {
            closure(.failure(error))
        }
    }

    /// Never stubs.
    @Sendable public static func neverStub(_: Target) -> StubBehavior { .never }

    /// Stubs every request, answering at once.
    @Sendable public static func immediatelyStub(_: Target) -> StubBehavior { .immediate }

    /// Stubs every request, answering after `seconds`.
    public static func delayedStub(_ seconds: TimeInterval) -> StubClosure {
        { _ in .delayed(seconds: seconds) }
    }
}
