import CurlTransport
import Foundation
import HTTPTypes
import TestServers
import XCTest

/// Collects what one `Session.perform` call reports, and checks the completion ran exactly once.
final class TransferRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var results: [Result<TransportResponse, TransportError>] = []
    private var progressValues: [TransferProgress] = []
    private var threadNames: [String] = []

    var progress: @Sendable (TransferProgress) -> Void {
        { [self] value in
            lock.lock()
            progressValues.append(value)
            lock.unlock()
        }
    }

    var completion: @Sendable (Result<TransportResponse, TransportError>) -> Void {
        { [self] result in
            lock.lock()
            results.append(result)
            lock.unlock()
            finished.signal()
        }
    }

    /// Waits for the completion; nil on timeout.
    func wait(seconds: Double = 20) -> Result<TransportResponse, TransportError>? {
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return results.first
    }

    var completionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return results.count
    }

    var reportedProgress: [TransferProgress] {
        lock.lock()
        defer { lock.unlock() }
        return progressValues
    }
}

extension XCTestCase {
    /// Sends `request` and waits for its result.
    func send(
        _ request: URLRequest, session: Session = Session(), downloadTo: URL? = nil, overwrite: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Result<TransportResponse, TransportError> {
        let recorder = TransferRecorder()
        _ = session.perform(
            request, downloadTo: downloadTo, overwrite: overwrite, progress: nil, completion: recorder.completion)
        let result = try XCTUnwrap(recorder.wait(), "no completion within 20 s", file: file, line: line)
        XCTAssertEqual(recorder.completionCount, 1, "completion must run exactly once", file: file, line: line)
        return result
    }

    /// Sends `request` and returns the response, failing the test on a transport error.
    func response(
        to request: URLRequest, session: Session = Session(), downloadTo: URL? = nil, overwrite: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> TransportResponse {
        switch try send(request, session: session, downloadTo: downloadTo, overwrite: overwrite, file: file, line: line)
        {
        case .success(let response): return response
        case .failure(let error): throw error
        }
    }

    /// Sends `request` and returns its transport error, failing the test on success.
    func transportError(
        for request: URLRequest, session: Session = Session(), downloadTo: URL? = nil, overwrite: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> TransportError {
        switch try send(request, session: session, downloadTo: downloadTo, overwrite: overwrite, file: file, line: line)
        {
        case .success(let response):
            XCTFail("expected a failure, got status \(response.head.statusCode)", file: file, line: line)
            throw TransportError(kind: .other, message: "unexpected success")
        case .failure(let error): return error
        }
    }

    /// A request for `url` with `method` and optional headers.
    func makeRequest(_ url: URL, method: String = "GET", headers: [(String, String)] = []) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers {
            if let fieldName = HTTPField.Name(name) { request.headers.append(HTTPField(name: fieldName, value: value)) }
        }
        return request
    }
}
