import Foundation
import MoyaKit
import TargetModel
import TargetSpec
import XCTest

@testable import TargetCheck

/// Issue 16: a check's request line reads the URL without building the whole request when the
/// task cannot change it; it must be the URL the whole request has.
final class DisplayURLTests: XCTestCase {
    /// Each example target file's API with a stubbing builder whose environment has every
    /// variable the files use.
    private func exampleAPIs() throws -> [(api: APISpec, builder: TargetBuilder)] {
        let targets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("targets")
        let files = try FileManager.default.contentsOfDirectory(atPath: targets.path).filter { $0.hasSuffix(".yaml") }
            .sorted()
        XCTAssertGreaterThanOrEqual(files.count, 4)
        return try files.map { file in
            let loaded = TargetFileLoader.load(path: targets.appendingPathComponent(file).path)
            let api = try XCTUnwrap(loaded.api, loaded.renderedDiagnostics())
            let builder = TargetBuilder(
                api: api,
                processEnvironment: [
                    "GITHUB_TOKEN": "t", "HTTPBIN_TOKEN": "t", "HTTPBIN_USER": "u",
                    "HTTPBIN_PASSWORD": "p", "CLIENT_ID": "i", "CLIENT_SECRET": "s"
                ],
                isStubbed: true)
            return (api, builder)
        }
    }

    func testTheShownURLIsTheRequestsForEveryCaseOfTheExampleTargets() throws {
        var compared = 0
        for (api, builder) in try exampleAPIs() {
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

    /// Issue 16: a check builds a case's target once and swaps the sample for each further one;
    /// that must be the target a whole build with that sample makes, for every sample of every
    /// example of the example targets.
    func testASwappedSampleGivesTheTargetAWholeBuildGives() throws {
        var compared = 0
        for (api, builder) in try exampleAPIs() {
            for spec in api.cases where spec.samples.count > 1 {
                for arguments in spec.examples {
                    guard let first = try? builder.target(for: spec, arguments: arguments) else { continue }
                    for sample in spec.samples {
                        let whole = try builder.target(for: spec, arguments: arguments, sampleName: sample.name)
                        let swapped = try builder.target(
                            first, answeringWith: sample.name, for: spec, arguments: arguments)
                        let context = "\(api.name).\(spec.name) \(arguments) sample \(sample.name)"
                        XCTAssertEqual(swapped.sampleName, whole.sampleName, context)
                        XCTAssertEqual(Self.text(of: swapped.sample), Self.text(of: whole.sample), context)
                        XCTAssertEqual(swapped.url, whole.url, context)
                        XCTAssertEqual(swapped.headers, whole.headers, context)
                        XCTAssertEqual(swapped.secretValues, whole.secretValues, context)
                        XCTAssertEqual(swapped.sensitiveHeaderNames, whole.sensitiveHeaderNames, context)
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 10)
    }

    /// A rendered sample written out in full, to compare two.
    private static func text(of sample: RenderedSample) -> String {
        switch sample {
        case .response(let status, let headers, let body):
            "\(status) \(headers.map { "\($0.name): \($0.value)" }) \(Array(body))"
        case .networkError(let error):
            "error \(error.kind) \(error.message)"
        }
    }
}
