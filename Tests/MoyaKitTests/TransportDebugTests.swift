import Foundation
import XCTest
@testable import MoyaKit
import TestSupport

final class TransportDebugTests: XCTestCase {
    func testDebug() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        for path in ["/status/201", "/status/204", "/status/400", "/get"] {
            let recorder = TransferRecorder()
            _ = Session().perform(makeRequest(server.url(path)), downloadTo: nil, overwrite: false, progress: nil, completion: recorder.completion)
            let r = recorder.wait(seconds: 3)
            print("DEBUG", path, String(describing: r).prefix(300))
        }
        var request = makeRequest(server.url("/anything"), method: "POST")
        request.httpBody = Data(repeating: 65, count: 70000)
        let recorder = TransferRecorder()
        _ = Session().perform(request, downloadTo: nil, overwrite: false, progress: nil, completion: recorder.completion)
        if case .success(let r)? = recorder.wait(seconds: 3) { print("DEBUG BODY", r.body.count, String(decoding: r.body.prefix(300), as: UTF8.self)) }
        print("DEBUG server", server.receivedRequests.map { ($0.method, $0.target, $0.bodyLength) })
    }
}
