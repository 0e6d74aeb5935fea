import Foundation
import MoyaKit
import TargetSpec
import XCTest
@testable import TargetCheck

/// Issue 16: a check's request line reads the URL without building the whole request when the
/// task cannot change it; it must be the URL the whole request has.
final class DisplayURLTests: XCTestCase {
    func testTheShownURLIsTheRequestsForEveryCaseOfTheExampleTargets() throws {
        let targets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("targets")
        let files = try FileManager.default.contentsOfDirectory(atPath: targets.path).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 4)
        var compared = 0
        for file in files {
            let loaded = TargetFileLoader.load(path: targets.appendingPathComponent(file).path)
            let api = try XCTUnwrap(loaded.api, loaded.renderedDiagnostics())
            let builder = TargetBuilder(api: api, processEnvironment: ["GITHUB_TOKEN": "t", "HTTPBIN_TOKEN": "t", "HTTPBIN_USER": "u",
                                                                        "HTTPBIN_PASSWORD": "p", "CLIENT_ID": "i", "CLIENT_SECRET": "s"],
                                        isStubbed: true)
            for spec in api.cases {
                for arguments in spec.examples {
                    guard let target = try? builder.target(for: spec, arguments: arguments) else { continue }
                    let whole = (try? target.endpoint.urlRequest().url?.absoluteString) ?? target.url
                    XCTAssertEqual(target.displayURL, whole, "\(api.name).\(spec.name) \(arguments)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 40)
    }
}
