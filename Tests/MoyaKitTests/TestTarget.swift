import Foundation
import MoyaKit
import Synchronization
import XCTest

/// A target whose every property a test sets.
struct TestTarget: TargetType, AccessTokenAuthorizable {
    var baseURL = URL(string: "https://example.com/api")!
    var path = "/things"
    var method: MoyaKit.Method = .get
    var task: Task = .requestPlain
    var validationType: ValidationType = .none
    var headers: [String: String]? = nil
    var sampleData = Data("{}".utf8)
    var authorizationType: AuthorizationType? = nil
}

/// A thread-safe list of events, in the order they happened.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
    func count(of event: String) -> Int { all.filter { $0 == event }.count }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Records every plugin call; `prepare` adds `X-Prepared: yes`.
struct RecordingPlugin: PluginType {
    let log: EventLog
    let name: String

    init(log: EventLog, name: String = "plugin") {
        self.log = log
        self.name = name
    }

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        log.append("\(name).prepare")
        var request = request
        request.setValue("yes", forHTTPHeaderField: "X-Prepared")
        return request
    }

    func willSend(_ request: any RequestType, target: any TargetType) {
        log.append("\(name).willSend \(request.request?.value(forHTTPHeaderField: "X-Prepared") ?? "-")")
    }

    func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
        log.append("\(name).didReceive \(Self.describe(result))")
    }

    func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError> {
        log.append("\(name).process \(Self.describe(result))")
        return result
    }

    static func describe(_ result: Result<Response, MoyaError>) -> String {
        switch result {
        case .success(let response): return "\(response.statusCode)"
        case .failure(let error): return error.isCancellation ? "cancelled" : "failure"
        }
    }
}

/// A `Result` holder a completion fills and a test reads after waiting.
final class ResultBox: Sendable {
    private let stored = Mutex<Result<Response, MoyaError>?>(nil)
    func set(_ result: Result<Response, MoyaError>) { stored.withLock { $0 = result } }
    var result: Result<Response, MoyaError>? { stored.withLock { $0 } }
}

extension XCTestCase {
    /// Sends `target` and waits for the result.
    func send<T: TargetType>(
        _ target: T, with provider: MoyaProvider<T>, timeout: TimeInterval = 5,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Result<Response, MoyaError>? {
        let done = expectation(description: "completion")
        let box = ResultBox()
        provider.request(target) { result in
            box.set(result)
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return box.result
    }
}

extension Result where Success == Response, Failure == MoyaError {
    var response: Response? { try? get() }
    var error: MoyaError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Data {
    var text: String { String(decoding: self, as: UTF8.self) }
}
