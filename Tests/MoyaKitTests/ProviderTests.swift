import Dispatch
import Foundation
import MoyaKit
import XCTest

final class ProviderTests: XCTestCase {
    func testImmediateStubCompletesSynchronouslyWithSampleData() {
        let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
        let box = ResultBox()
        provider.request(.zen) { box.set($0) }
        // Moya's immediate stub with no callback queue answers before `request` returns.
        let response = box.result?.response
        XCTAssertEqual(response?.statusCode, 200)
        XCTAssertEqual(response?.data.text, "Half measures are as bad as nothing at all.")
        XCTAssertEqual(response?.request?.url?.absoluteString, "https://api.github.com/zen")
        XCTAssertNil(response?.response)
    }

    func testAsyncRequestReturnsTheStubbedResponse() async throws {
        let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
        let response = try await provider.request(.userProfile("ashfurrow"))
        XCTAssertEqual(try response.mapJSON(), ["login": "ashfurrow", "id": 100])
        XCTAssertEqual(response.request?.url?.absoluteString, "https://api.github.com/users/ashfurrow")
    }

    func testDelayedStubWaitsAndRunsOnTheCallbackQueue() {
        let queue = DispatchQueue(label: "callbacks")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "callbacks")
        let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.delayedStub(0.2), callbackQueue: queue)
        let done = expectation(description: "completion")
        let start = Date()
        provider.request(.branches("Moya", false)) { result in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "callbacks")
            XCTAssertEqual(result.response?.data.text, #"[{"name": "master"}]"#)
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.19)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }

    func testPluginsRunInPipelineOrder() {
        let log = EventLog()
        let provider = MoyaProvider<GitHub>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [RecordingPlugin(log: log, name: "first"), RecordingPlugin(log: log, name: "second")])
        let result = send(.zen, with: provider)
        XCTAssertEqual(
            log.all,
            [
                "first.prepare", "second.prepare",
                "first.willSend yes", "second.willSend yes",
                "first.didReceive 200", "second.didReceive 200",
                "first.process 200", "second.process 200"
            ])
        XCTAssertEqual(result?.response?.request?.value(forHTTPHeaderField: "X-Prepared"), "yes")
    }

    func testProcessCanReplaceTheResult() {
        struct Rewrite: PluginType {
            func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError> {
                .success(Response(statusCode: 299, data: Data("rewritten".utf8)))
            }
        }
        let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub, plugins: [Rewrite()])
        XCTAssertEqual(send(.zen, with: provider)?.response?.statusCode, 299)
    }

    func testValidationAppliesToStubbedResponses() {
        let endpointClosure: MoyaProvider<TestTarget>.EndpointClosure = { target in
            Endpoint(
                url: URL(target: target).absoluteString,
                sampleResponseClosure: { .networkResponse(404, Data("missing".utf8)) },
                method: target.method, task: target.task, httpHeaderFields: target.headers)
        }
        let provider = MoyaProvider<TestTarget>(
            endpointClosure: endpointClosure, stubClosure: MoyaProvider.immediatelyStub)
        guard case .statusCode(let response)? = send(TestTarget(validationType: .successCodes), with: provider)?.error
        else {
            return XCTFail("expected a status code error")
        }
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(response.data.text, "missing")
        XCTAssertEqual(send(TestTarget(validationType: .customCodes([404])), with: provider)?.response?.statusCode, 404)
        XCTAssertEqual(send(TestTarget(validationType: .none), with: provider)?.response?.statusCode, 404)
    }

    func testCustomSampleResponsesAndNetworkErrors() {
        let head = HTTPResponseHead(
            statusCode: 201, headers: [.contentType: "text/plain"], url: URL(string: "https://example.com/api/things"))
        let samples: [String: EndpointSampleResponse] = [
            "/head": .response(head, Data("made".utf8)),
            "/error": .networkError(
                TransportError(kind: .timedOut, message: "Operation timed out after 2001 milliseconds"))
        ]
        let provider = MoyaProvider<TestTarget>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacingSample(
                    samples[target.path] ?? .networkResponse(200, Data()))
            }, stubClosure: MoyaProvider.immediatelyStub)

        let created = send(TestTarget(path: "/head"), with: provider)?.response
        XCTAssertEqual(created?.statusCode, 201)
        XCTAssertEqual(created?.response, head)

        let failure = send(TestTarget(path: "/error"), with: provider)?.error
        XCTAssertEqual(failure?.transportError?.kind, .timedOut)
        XCTAssertEqual(failure?.errorDescription, "Operation timed out after 2001 milliseconds")
    }

    func testCancellingADelayedStubCompletesAtOnceWithCancellation() {
        let log = EventLog()
        let provider = MoyaProvider<GitHub>(
            stubClosure: MoyaProvider.delayedStub(10), plugins: [RecordingPlugin(log: log)])
        let done = expectation(description: "completion")
        let box = ResultBox()
        let token = provider.request(.zen) { result in
            box.set(result)
            done.fulfill()
        }
        XCTAssertFalse(token.isCancelled)
        token.cancel()
        XCTAssertTrue(token.isCancelled)
        wait(for: [done], timeout: 2)
        guard case .underlying(let error, nil)? = box.result?.error else {
            return XCTFail("expected an underlying error")
        }
        XCTAssertEqual((error as? TransportError)?.kind, .cancelled)
        XCTAssertEqual(
            log.all,
            ["plugin.prepare", "plugin.willSend yes", "plugin.didReceive cancelled", "plugin.process cancelled"])
    }

    func testCancellingTheTaskCancelsTheRequest() async {
        let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.delayedStub(10))
        let request = _Concurrency.Task { try await provider.request(.zen) }
        try? await _Concurrency.Task.sleep(nanoseconds: 50_000_000)
        let start = Date()
        request.cancel()
        do {
            _ = try await request.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue((error as? MoyaError)?.isCancellation == true, "\(error)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        }
    }

    func testRequestWithProgressEndsWithTheResponse() async throws {
        let provider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.delayedStub(0.01))
        var values: [ProgressResponse] = []
        for try await value in provider.requestWithProgress(.zen) { values.append(value) }
        XCTAssertEqual(values.count, 1)
        XCTAssertEqual(values.last?.completed, true)
        XCTAssertEqual(values.last?.progress, 1)
        XCTAssertEqual(values.last?.response?.statusCode, 200)
    }

    func testRequestClosureFailureSkipsTheExchange() {
        let log = EventLog()
        let provider = MoyaProvider<GitHub>(
            requestClosure: { _, done in done(.failure(.requestMapping("nope"))) },
            stubClosure: MoyaProvider.immediatelyStub, plugins: [RecordingPlugin(log: log)])
        guard case .requestMapping(let url)? = send(.zen, with: provider)?.error else {
            return XCTFail("expected requestMapping")
        }
        XCTAssertEqual(url, "nope")
        XCTAssertEqual(log.all, ["plugin.process failure"])
    }

    func testAsynchronousRequestClosureCanSignTheRequest() {
        let provider = MoyaProvider<GitHub>(
            requestClosure: { endpoint, done in
                DispatchQueue.global().async {
                    do {
                        var request = try endpoint.urlRequest()
                        request.setValue("signed", forHTTPHeaderField: "X-Signature")
                        done(.success(request))
                    } catch {
                        done(.failure(.underlying(error, nil)))
                    }
                }
            }, stubClosure: MoyaProvider.immediatelyStub)
        XCTAssertEqual(
            send(.zen, with: provider)?.response?.request?.value(forHTTPHeaderField: "X-Signature"), "signed")
    }

    func testInvalidParametersFailWithParameterEncoding() {
        let provider = MoyaProvider<TestTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let target = TestTarget(
            task: .requestParameters(parameters: ["bad": Double.nan], encoding: JSONEncoding.default))
        guard case .parameterEncoding? = send(target, with: provider)?.error else {
            return XCTFail("expected parameterEncoding")
        }
    }

    func testStubbedDownloadWritesTheSampleAndNeverOverwritesSilently() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moyakit-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nested/zen.txt")
        let provider = MoyaProvider<TestTarget>(stubClosure: MoyaProvider.immediatelyStub)
        var target = TestTarget(
            task: .downloadDestination(DownloadDestinations.file(file)), sampleData: Data("first".utf8))

        XCTAssertEqual(send(target, with: provider)?.response?.statusCode, 200)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "first")

        target.sampleData = Data("second".utf8)
        let refused = send(target, with: provider)?.error
        XCTAssertEqual(refused?.transportError?.kind, .destinationExists)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "first")

        target.task = .downloadDestination(DownloadDestinations.file(file, options: [.removePreviousFile]))
        XCTAssertEqual(send(target, with: provider)?.response?.statusCode, 200)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "second")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path), ["zen.txt"])
    }

    func testStubbedDownloadIntoAMissingFolderFailsAndLeavesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moyakit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("absent/zen.txt")
        let provider = MoyaProvider<TestTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let target = TestTarget(
            task: .downloadDestination(DownloadDestinations.file(file, options: [])), sampleData: Data("zen".utf8))

        let error = send(target, with: provider)?.error
        XCTAssertEqual(error?.transportError?.kind, .cannotWriteOutput)
        XCTAssertTrue(error?.transportError?.message.contains(file.path) ?? false, String(describing: error))
        XCTAssertEqual(error?.response?.data, Data("zen".utf8), "the sample still comes with the failure")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testMultiTargetForwardsEverything() {
        let provider = MoyaProvider<MultiTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let response = send(MultiTarget(GitHub.userRepositories("moya")), with: provider)?.response
        XCTAssertEqual(response?.request?.url?.absoluteString, "https://api.github.com/users/moya/repos?sort=pushed")
        XCTAssertEqual(response?.data.text, #"[{"name": "Repo Name"}]"#)
    }
}

extension Endpoint {
    func replacingSample(_ sample: EndpointSampleResponse) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: { sample }, method: method, task: task, httpHeaderFields: httpHeaderFields)
    }
}
