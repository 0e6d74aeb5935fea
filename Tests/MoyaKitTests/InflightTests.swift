import Dispatch
import Foundation
import MoyaKit
import XCTest

final class InflightTests: XCTestCase {
    /// A provider whose stub exchanges are counted (one sample taken per exchange).
    private func makeProvider(
        delay: TimeInterval, trackInflights: Bool = true, exchanges: Counter, log: EventLog = EventLog(),
        requestClosure: MoyaProvider<GitHub>.RequestClosure? = nil
    ) -> MoyaProvider<GitHub> {
        let endpointClosure: MoyaProvider<GitHub>.EndpointClosure = { target in
            let endpoint = MoyaProvider.defaultEndpointMapping(for: target)
            return endpoint.replacingSample(.networkResponse(200, target.sampleData)).counting(exchanges)
        }
        return MoyaProvider<GitHub>(
            endpointClosure: endpointClosure,
            requestClosure: requestClosure ?? MoyaProvider<GitHub>.defaultRequestMapping,
            stubClosure: MoyaProvider.delayedStub(delay), plugins: [RecordingPlugin(log: log)],
            trackInflights: trackInflights)
    }

    private func request(
        _ target: GitHub, _ provider: MoyaProvider<GitHub>, into boxes: inout [ResultBox],
        expectations: inout [XCTestExpectation]
    ) -> any Cancellable {
        let box = ResultBox()
        let done = expectation(description: "completion \(expectations.count)")
        boxes.append(box)
        expectations.append(done)
        return provider.request(target) { result in
            box.set(result)
            done.fulfill()
        }
    }

    func testIdenticalRequestsShareOneExchangeAndOneResult() {
        let exchanges = Counter()
        let log = EventLog()
        let provider = makeProvider(delay: 0.3, exchanges: exchanges, log: log)
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        XCTAssertEqual(Array(provider.inflightRequests.values), [2])
        wait(for: expectations, timeout: 5)

        XCTAssertEqual(exchanges.count, 1)
        let first = boxes[0].result?.response
        XCTAssertNotNil(first)
        XCTAssertTrue(first === boxes[1].result?.response)
        XCTAssertEqual(log.count(of: "plugin.willSend yes"), 1)
        XCTAssertEqual(log.count(of: "plugin.didReceive 200"), 1)
        XCTAssertEqual(log.count(of: "plugin.process 200"), 2)
        XCTAssertTrue(provider.inflightRequests.isEmpty)

        // Once done, the same request starts a new exchange.
        XCTAssertNotNil(send(.zen, with: provider)?.response)
        XCTAssertEqual(exchanges.count, 2)
    }

    func testDifferentRequestsAreNotShared() {
        let exchanges = Counter()
        let provider = makeProvider(delay: 0.1, exchanges: exchanges)
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        _ = request(.branches("Moya", true), provider, into: &boxes, expectations: &expectations)
        _ = request(.branches("Moya", false), provider, into: &boxes, expectations: &expectations)
        XCTAssertEqual(provider.inflightRequests.count, 2)
        wait(for: expectations, timeout: 5)
        XCTAssertEqual(exchanges.count, 2)
    }

    func testWithoutTrackingEveryRequestHasItsOwnExchange() {
        let exchanges = Counter()
        let provider = makeProvider(delay: 0.1, trackInflights: false, exchanges: exchanges)
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        wait(for: expectations, timeout: 5)
        XCTAssertEqual(exchanges.count, 2)
    }

    func testCancellingOneCallerLeavesTheOthersTheirResult() {
        let exchanges = Counter()
        let provider = makeProvider(delay: 0.4, exchanges: exchanges)
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        let first = request(.zen, provider, into: &boxes, expectations: &expectations)
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        first.cancel()
        // The cancelled caller hears at once, the other when the shared exchange ends.
        wait(for: [expectations[0]], timeout: 0.3)
        XCTAssertEqual(boxes[0].result?.error?.isCancellation, true)
        XCTAssertNil(boxes[1].result)
        XCTAssertEqual(Array(provider.inflightRequests.values), [1])
        wait(for: [expectations[1]], timeout: 5)
        XCTAssertEqual(boxes[1].result?.response?.statusCode, 200)
        XCTAssertEqual(exchanges.count, 1)
        XCTAssertTrue(provider.inflightRequests.isEmpty)
    }

    func testCancellingEveryCallerCancelsTheExchange() {
        let exchanges = Counter()
        let log = EventLog()
        let provider = makeProvider(delay: 10, exchanges: exchanges, log: log)
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        let first = request(.zen, provider, into: &boxes, expectations: &expectations)
        let second = request(.zen, provider, into: &boxes, expectations: &expectations)
        first.cancel()
        second.cancel()
        wait(for: expectations, timeout: 2)
        XCTAssertEqual(boxes.compactMap { $0.result?.error?.isCancellation }, [true, true])
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        XCTAssertEqual(log.count(of: "plugin.didReceive cancelled"), 1)
        XCTAssertEqual(exchanges.count, 0)

        // A new identical request is not joined to the cancelled exchange.
        let fresh = makeProvider(delay: 0, exchanges: exchanges)
        XCTAssertEqual(send(.zen, with: fresh)?.response?.statusCode, 200)
    }

    func testCallerJoiningAfterTheOthersCancelledStartsAFreshExchange() {
        let exchanges = Counter()
        let provider = makeProvider(delay: 0.2, exchanges: exchanges)
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        request(.zen, provider, into: &boxes, expectations: &expectations).cancel()
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        wait(for: expectations, timeout: 5)
        XCTAssertEqual(boxes[0].result?.error?.isCancellation, true)
        XCTAssertEqual(boxes[1].result?.response?.statusCode, 200)
        XCTAssertEqual(exchanges.count, 1)
    }

    func testRequestMappingFailureRemovesTheInflightEntry() {
        let exchanges = Counter()
        let gate = DispatchSemaphore(value: 0)
        let provider = makeProvider(
            delay: 0, exchanges: exchanges,
            requestClosure: { _, done in
                DispatchQueue.global().async {
                    gate.wait()
                    done(.failure(.requestMapping("refused")))
                }
            })
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        _ = request(.zen, provider, into: &boxes, expectations: &expectations)
        // Requests are coalesced once made (after the plugins), so nothing is in flight yet.
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        gate.signal()
        gate.signal()
        wait(for: expectations, timeout: 5)
        for box in boxes {
            guard case .requestMapping? = box.result?.error else { return XCTFail("expected requestMapping") }
        }
        XCTAssertTrue(provider.inflightRequests.isEmpty)
    }

    func testCancellingBeforeTheRequestClosureAnswersNeverStartsTheExchange() {
        let exchanges = Counter()
        let gate = DispatchSemaphore(value: 0)
        let provider = makeProvider(
            delay: 0, exchanges: exchanges,
            requestClosure: { endpoint, done in
                DispatchQueue.global().async {
                    gate.wait()
                    MoyaProvider<GitHub>.defaultRequestMapping(for: endpoint, closure: done)
                }
            })
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        request(.zen, provider, into: &boxes, expectations: &expectations).cancel()
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        gate.signal()
        wait(for: expectations, timeout: 5)
        XCTAssertEqual(boxes[0].result?.error?.isCancellation, true)
        XCTAssertEqual(exchanges.count, 0)
    }
}

extension Endpoint {
    /// The same endpoint, counting each sample taken (one per stub exchange).
    func counting(_ counter: Counter) -> Endpoint {
        let sample = sampleResponseClosure
        return Endpoint(
            url: url,
            sampleResponseClosure: {
                counter.increment()
                return sample()
            }, method: method, task: task, httpHeaderFields: httpHeaderFields)
    }
}
