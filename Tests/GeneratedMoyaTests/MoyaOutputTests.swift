import Foundation
import Moya
import SwiftGeneration
import XCTest

/// `moya-cli generate swift --module Moya`: the committed output is what the binary writes, it
/// uses none of the names MoyaKit has and Moya 15 lacks, and (but httpbin's) it compiles here,
/// written `--access internal`.
final class MoyaOutputTests: XCTestCase {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = [
        ("targets", "github", "Github.swift"), ("targets", "httpbin", "Httpbin.swift"),
        ("targets", "httpbin-token", "HttpbinToken.swift"), ("targets", "httpbin-oauth", "HttpbinOauth.swift"),
        ("Tests/Fixtures/generate", "hostile-names", "HostileNames.swift"),
        ("Tests/Fixtures/generate", "keyed", "Keyed.swift"),
        ("Tests/Fixtures/generate", "self", "SelfAPI.swift"),
        ("Tests/Fixtures/generate", "keywords", "Keywords.swift")
    ]

    func testCommittedMoyaOutputIsWhatTheBinaryWritesAndUsesOnlyMoyaNames() throws {
        for (folder, api, file) in Self.fixtures {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("moya-cli")
            process.arguments = [
                "generate", "swift", api, "--targets", folder, "--module", "Moya", "--access", "internal"
            ]
            process.currentDirectoryURL = Self.repositoryRoot
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let written = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, api)
            let committed = try Data(
                contentsOf: Self.repositoryRoot.appendingPathComponent("Tests/GeneratedMoyaTests/Generated/" + file))
            XCTAssertEqual(written, committed, "Generated/\(file) differs from the binary's; run make generated-swift")
            let text = String(decoding: written, as: UTF8.self)
            XCTAssertTrue(text.contains("\nimport Moya\n"), api)
            let publicLines = text.split(separator: "\n").filter {
                $0.drop(while: { $0 == " " }).hasPrefix("public ")
            }
            XCTAssertEqual(publicLines, [], api)
            for name in MoyaCompatibility.moyaKitOnlyNames {
                XCTAssertFalse(text.contains(name), "\(api): the Moya output uses MoyaKit's \(name)")
            }
        }
    }

    /// The compiled Moya output leaves a path value raw for Moya's `appendingPathComponent` to
    /// escape (escaped here, it would be escaped twice: real Moya 15 sent `a%2520b` for `a b`), but
    /// for what would leave its segment; a multipart part goes by Moya's name.
    func testMoyaOutputLeavesPathValuesToMoyasEscapingButKeepsThemInTheirSegment() {
        let hostile = HostileNames.`default`(self_: "a/b ../%2F é", in: 7, type: .café)
        XCTAssertEqual(hostile.path, "/default/a%2Fb ..%2F%2F é/7/café")
        XCTAssertEqual(HostileNames.`default`(self_: "..").path, "/default/%2E%2E/3/default")
        XCTAssertEqual(HostileNames.`default`(self_: ".").path, "/default/%2E/3/default")
        guard case .uploadCompositeMultipart(let parts, _) = HostileNames.init_().task else {
            return XCTFail("init_ is a multipart upload with a query")
        }
        XCTAssertEqual(parts.map(\.name), ["field \"q\"", "fixed"])
    }
}
