import Foundation
import MoyaKit
import Synchronization
import TestServers
import XCTest

/// `provider.request(_:body:)`: bodies kept up to a limit, dropped, or streamed to a consumer as
/// they arrive, live over loopback and from stubs alike.
final class ResponseBodyHandlingTests: HTTPBinTestCase {
    /// Records what the transport hands it.
    final class Recorder: ResponseBodyConsumer, Sendable {
        private let state = Mutex<(heads: [Int], bytes: Data, chunks: Int)>(([], Data(), 0))
        let takes: Bool
        let failAfter: Int?

        init(takes: Bool = true, failAfter: Int? = nil) {
            self.takes = takes
            self.failAfter = failAfter
        }

        var heads: [Int] { state.withLock { $0.heads } }
        var bytes: Data { state.withLock { $0.bytes } }
        var chunks: Int { state.withLock { $0.chunks } }

        func begin(_ head: HTTPResponseHead) throws(TransportError) -> Bool {
            state.withLock { $0.heads.append(head.statusCode) }
            return takes
        }

        func consume(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
            let count = state.withLock { state in
                state.bytes.append(contentsOf: bytes)
                state.chunks += 1
                return state.bytes.count
            }
            if let failAfter, count > failAfter {
                throw TransportError(kind: .cannotWriteOutput, message: "cannot write the sink: full")
            }
        }
    }

    func send(_ target: HTTPBin, body: ResponseBodyHandling, stubbed: Bool = false) -> Result<Response, MoyaError>? {
        let provider = MoyaProvider<HTTPBin>(
            stubClosure: stubbed ? MoyaProvider.immediatelyStub : MoyaProvider.neverStub)
        let done = expectation(description: "completion")
        let box = ResultBox()
        provider.request(target, body: body) { result in
            box.set(result)
            done.fulfill()
        }
        wait(for: [done], timeout: 20)
        return box.result
    }

    func testAStreamedBodyReachesTheConsumerInPiecesAndIsNotKept() throws {
        let recorder = Recorder()
        let response = try XCTUnwrap(send(.bytes(1_000_000), body: .stream(to: recorder, keepingPrefix: 100))?.get())
        XCTAssertEqual(recorder.heads, [200])
        XCTAssertEqual(recorder.bytes, TestBytes.data(count: 1_000_000))
        XCTAssertGreaterThan(recorder.chunks, 1, "handed over as it arrived")
        XCTAssertEqual(response.data, TestBytes.data(count: 100), "only the prefix is kept")
        XCTAssertEqual(response.bodyLength, 1_000_000)
        XCTAssertFalse(response.hasWholeBody)
    }

    func testAStubStreamsItsSampleThroughTheSameConsumer() throws {
        let recorder = Recorder()
        let response = try XCTUnwrap(send(.get, body: .stream(to: recorder, keepingPrefix: 0), stubbed: true)?.get())
        XCTAssertEqual(recorder.heads, [200])
        XCTAssertEqual(recorder.bytes.text, #"{"stubbed":true}"#)
        XCTAssertEqual(response.data, Data())
        XCTAssertEqual(response.bodyLength, 16)
    }

    func testAnEmptyBodyStillBeginsTheConsumer() throws {
        let recorder = Recorder()
        _ = send(.status(204), body: .stream(to: recorder, keepingPrefix: 0))
        XCTAssertEqual(recorder.heads, [204])
        XCTAssertEqual(recorder.bytes, Data())
    }

    func testAConsumerThatDeclinesGetsNothing() throws {
        let recorder = Recorder(takes: false)
        let response = try XCTUnwrap(send(.bytes(5000), body: .stream(to: recorder, keepingPrefix: 0))?.get())
        XCTAssertEqual(recorder.bytes, Data())
        XCTAssertEqual(response.bodyLength, 5000)
    }

    func testAFailingConsumerAbortsTheTransferWithItsError() throws {
        let recorder = Recorder(failAfter: 100_000)
        let error = try XCTUnwrap(send(.bytes(50_000_000), body: .stream(to: recorder, keepingPrefix: 0))?.error)
        XCTAssertEqual(error.transportError?.kind, .cannotWriteOutput)
        XCTAssertEqual(error.transportError?.message, "cannot write the sink: full")
        XCTAssertLessThan(recorder.bytes.count, 50_000_000, "the transfer stopped")
    }

    func testCollectingFailsPastItsLimitLiveAndStubbed() throws {
        let live = try XCTUnwrap(send(.bytes(300_000), body: .collect(limit: 100_000))?.error)
        XCTAssertEqual(live.transportError?.kind, .responseTooLarge)
        XCTAssertEqual(
            live.transportError?.message, "the response body is larger than 97.7 KiB, the most kept in memory")
        let stub = try XCTUnwrap(send(.get, body: .collect(limit: 4), stubbed: true)?.error)
        XCTAssertEqual(stub.transportError?.kind, .responseTooLarge)
        let within = try XCTUnwrap(send(.bytes(300_000), body: .collect(limit: 300_000))?.get())
        XCTAssertEqual(within.data, TestBytes.data(count: 300_000))
    }

    func testDiscardingKeepsOnlyTheLength() throws {
        let response = try XCTUnwrap(send(.bytes(2_000_000), body: .discard)?.get())
        XCTAssertEqual(response.data, Data())
        XCTAssertEqual(response.bodyLength, 2_000_000)
    }
}
