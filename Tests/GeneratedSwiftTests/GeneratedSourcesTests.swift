import Foundation
import XCTest

/// The committed generated sources are what the built binary writes now, byte for byte, wherever
/// it runs: they cannot drift from the generator (`make generated-swift` writes them again).
final class GeneratedSourcesTests: XCTestCase {
    func testEachCommittedSourceIsWhatGenerateSwiftWrites() throws {
        for fixture in GeneratedFixture.all {
            let run = try GeneratedBinary.run(
                ["generate", "swift", "--module", "MoyaKit", fixture.api, "--targets", fixture.folder, "--examples"],
                in: GeneratedBinary.repositoryRoot)
            XCTAssertEqual(run.status, 0, "\(fixture.api): \(run.stderr)")
            XCTAssertEqual(run.stderr, "", fixture.api)
            let committed = try Data(
                contentsOf: GeneratedBinary.repositoryRoot.appendingPathComponent(
                    "Tests/GeneratedSwiftTests/Generated/" + fixture.sourceFile))
            XCTAssertEqual(
                run.stdout, committed,
                "Generated/\(fixture.sourceFile) is not what `moya-cli generate swift \(fixture.api) --examples` writes; run make generated-swift"
            )
        }
    }

    /// The same bytes from another working directory and HOME, the target files named by an
    /// absolute path: nothing of the machine or the run gets in.
    func testOutputIsTheSameFromAnotherFolderAndHome() throws {
        for fixture in GeneratedFixture.all {
            let elsewhere = try makeTemporaryFolder()
            let folder = GeneratedBinary.repositoryRoot.appendingPathComponent(fixture.folder).path
            let first = try GeneratedBinary.run(
                ["generate", "swift", "--module", "MoyaKit", fixture.api, "--targets", folder], in: elsewhere)
            let second = try GeneratedBinary.run(
                ["generate", "swift", "--module", "MoyaKit", fixture.api, "--targets", folder],
                in: try makeTemporaryFolder(),
                environment: ["HOME": elsewhere.path, "TZ": "Pacific/Kiritimati", "LANG": "tr_TR.UTF-8"])
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertEqual(first.stdout, second.stdout, fixture.api)
            XCTAssertFalse(String(decoding: first.stdout, as: UTF8.self).contains(elsewhere.path), fixture.api)
            XCTAssertFalse(String(decoding: first.stdout, as: UTF8.self).contains(folder), fixture.api)
        }
    }
}
