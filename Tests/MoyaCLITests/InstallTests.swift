import CLITestSupport
import Foundation
import XCTest

/// Issue 26, item 9: `make install` installs the shipped example targets by name, never whatever
/// else lies in `targets/` (an import, a saved case, a planted file). The Makefile runs for real,
/// on a copy of the repository's Makefile, man pages and targets with extra files added, with the
/// built binary and its `build` step taken as done (`make -o build`).
final class InstallTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let shippedTargets = ["github.yaml", "httpbin-oauth.yaml", "httpbin-token.yaml", "httpbin.yaml"]

    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "make is not installed")
        folder = try TemporaryFolder()
        for item in ["Makefile", "man", "targets"] {
            try FileManager.default.copyItem(
                at: Self.repository.appendingPathComponent(item), to: folder.url.appendingPathComponent(item))
        }
        try folder.write(
            "targets/foo.yaml",
            "api: github\nbaseURL: http://127.0.0.1:1\nauth: {type: command, command: [sh, -c, 'echo pwned']}\ncases: {}\n"
        )
        try folder.write("targets/imported.yml", "api: imported\n")
        try folder.write("targets/samples/recorded.json", "{}")
    }

    private func make(_ goal: String) throws -> CLIResult {
        try CLIRunner.runShell(
            "make -o build -o deps \(goal) DESTDIR=\"$PWD/dest\" PREFIX=/usr BIN='\(CLIRunner.binaryURL.path)'",
            in: folder.url)
    }

    private func installed(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("dest/usr/share/moya-cli/targets" + path).path
        ).sorted()
    }

    func testInstallPutsOnlyTheShippedExamplesInPlace() throws {
        let install = try make("install")
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertEqual(try installed(""), Self.shippedTargets + ["samples"])
        let samples = try FileManager.default.contentsOfDirectory(
            atPath: Self.repository.appendingPathComponent("targets/samples").path)
        XCTAssertEqual(try installed("/samples"), samples.sorted(), "every sample the repository ships, and no other")
        XCTAssertFalse(try installed("/samples").contains("recorded.json"))
        let binary = folder.url.appendingPathComponent("dest/usr/bin/moya-cli").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary))
        // `import swift`'s helper goes beside it (issue 43): moya-cli runs it from its own folder.
        let helper = folder.url.appendingPathComponent("dest/usr/bin/moya-cli-import-swift").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: helper))

        // The examples installed are whole: every sample file they name is there.
        let installedFolder = folder.url.appendingPathComponent("dest/usr/share/moya-cli/targets")
        let validate = try CLIRunner.run(
            ["validate"] + Self.shippedTargets.map { installedFolder.appendingPathComponent($0).path },
            currentDirectory: folder.url)
        XCTAssertEqual(validate.status, 0, validate.stderr)

        let uninstall = try make("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: helper))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("dest/usr/share/moya-cli").path),
            "uninstall removes what install put in place")
    }

    /// The Makefile's list is README's: the examples "A short tour" names.
    func testTheShippedListIsTheOneReadmeNames() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let tour = try XCTUnwrap(
            readme.range(of: "The example target files live in").map { readme[$0.lowerBound...].prefix(600) })
        let named = Set(tour.matches(of: /\(targets\/([a-z-]+\.yaml)\)/).map { String($0.output.1) })
        XCTAssertEqual(named.sorted(), Self.shippedTargets)
        let shipped = try FileManager.default.contentsOfDirectory(
            atPath: Self.repository.appendingPathComponent("targets").path
        )
        .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
        XCTAssertEqual(
            shipped.sorted(), Self.shippedTargets,
            "a new example in targets/ is added to the Makefile's SHIPPED_TARGETS and README")
    }
}
