import CLITestSupport
import Foundation
import XCTest

/// The load cache as a user meets it: `call` and `curl` of an unchanged target file read its
/// entry, and every change that could change the verdict (the file, a sample another case names, a
/// folder turned into a link) is seen at once. The files are written, then left to settle for two
/// seconds (a file changed in the last two is never kept), once for the whole test.
final class LoadCacheCLITests: XCTestCase {
    private var sandbox: Sandbox!
    private var entries: String { sandbox.home.path + "/.cache/moya-cli/loaded" }

    private let target = """
        api: t
        baseURL: https://a.example
        cases:
          first:
            path: /first
            sample: "first answer"
          second:
            path: /second
            sample:
              json: {second: true}
          third:
            path: /third
            sample:
              file: samples/third.json

        """

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        try sandbox.write("targets/t.yaml", target)
        try sandbox.write("targets/samples/third.json", #"{"third": 3}"#)
        try sandbox.write(
            "targets/other.yaml", "api: other\nbaseURL: https://b.example\ncases:\n  bare: {path: /bare}\n")
        Thread.sleep(forTimeInterval: 2.1)
    }

    private func entryNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: entries)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    func testAnUnchangedFileIsReadFromItsEntryAndEveryChangeIsSeen() throws {
        // The first call loads both files of ./targets and keeps an entry for each.
        assertRun(try sandbox.run(["call", "t", "first", "--stub"]), status: 0, stdout: "first answer", stderr: "")
        XCTAssertEqual(entryNames().count, 2)
        var info = stat()
        XCTAssertEqual(stat(entries, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        for name in entryNames() {
            XCTAssertEqual(stat(entries + "/" + name, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600)
        }

        // The entry is what the next call reads: changed in place (as only this user can), it
        // answers instead of the file.
        let entry = try XCTUnwrap(
            entryNames().first { name in
                (try? Data(contentsOf: URL(fileURLWithPath: entries + "/" + name)))?.range(
                    of: Data("first answer".utf8))
                    != nil
            })
        let entryURL = URL(fileURLWithPath: entries + "/" + entry)
        let original = try Data(contentsOf: entryURL)
        var patched = original
        let range = try XCTUnwrap(patched.range(of: Data("first answer".utf8)))
        patched.replaceSubrange(range, with: Data("FIRST ANSWER".utf8))
        try patched.write(to: entryURL)
        chmod(entryURL.path, 0o600)
        assertRun(try sandbox.run(["call", "t", "first", "--stub"]), status: 0, stdout: "FIRST ANSWER", stderr: "")
        // Every case decodes from it, as the file gives it; curl too.
        for arguments in [["call", "t", "second", "--stub"], ["call", "t", "third", "--stub"], ["curl", "t", "second"]]
        {
            let fromEntry = try sandbox.run(arguments)
            let fromFile = try sandbox.run(arguments, environment: ["MOYA_NO_LOAD_CACHE": "1"])
            XCTAssertEqual(fromEntry.status, 0, fromEntry.stderr)
            XCTAssertEqual(fromEntry.stdout, fromFile.stdout, arguments.joined(separator: " "))
            XCTAssertEqual(fromEntry.stderr, fromFile.stderr, arguments.joined(separator: " "))
        }
        let unknown = try sandbox.run(["call", "t", "fourth", "--stub"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("valid cases: first, second, third"), unknown.stderr)

        // Others may write the entry: it is not believed, the file is loaded and the entry written again.
        chmod(entryURL.path, 0o644)
        assertRun(try sandbox.run(["call", "t", "first", "--stub"]), status: 0, stdout: "first answer", stderr: "")

        // The file changed in place, same size, at once: seen.
        try sandbox.write("targets/t.yaml", target.replacingOccurrences(of: "first answer", with: "other answer"))
        assertRun(try sandbox.run(["call", "t", "first", "--stub"]), status: 0, stdout: "other answer", stderr: "")
    }

    /// What another case names is part of the verdict: its sample gone or broken, the call fails
    /// as it would without the cache, with the same message.
    func testASampleAnotherCaseNamesIsCheckedAgain() throws {
        assertRun(try sandbox.run(["call", "t", "first", "--stub"]), status: 0, stdout: "first answer", stderr: "")
        XCTAssertEqual(entryNames().count, 2)
        try sandbox.write("targets/samples/third.json", #"{"third": 3"#)
        let broken = try sandbox.run(["call", "t", "first", "--stub"])
        let uncached = try sandbox.run(["call", "t", "first", "--stub"], environment: ["MOYA_NO_LOAD_CACHE": "1"])
        XCTAssertEqual(broken.status, 65)
        XCTAssertTrue(broken.stderr.contains("sample file 'samples/third.json' is not valid JSON"), broken.stderr)
        XCTAssertEqual(broken.stderr, uncached.stderr)
        XCTAssertEqual(broken.status, uncached.status)

        try FileManager.default.removeItem(atPath: sandbox.path("targets/samples/third.json"))
        let missing = try sandbox.run(["call", "t", "first", "--stub"])
        XCTAssertEqual(missing.status, 65)
        XCTAssertTrue(missing.stderr.contains("'samples/third.json' does not exist"), missing.stderr)

        // The sample now a link out of the target file's folder: refused as without the cache.
        try sandbox.write("elsewhere.json", "{}")
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("targets/samples/third.json"), withDestinationPath: sandbox.path("elsewhere.json"))
        let linked = try sandbox.run(["call", "t", "first", "--stub"])
        XCTAssertEqual(linked.status, 65)
        XCTAssertTrue(linked.stderr.contains("is outside"), linked.stderr)
    }

    /// A current folder that cannot be named (removed under the running shell) leaves relative
    /// paths meaningless to an entry: nothing is read or written, the call works.
    func testARemovedCurrentFolderUsesNoEntry() throws {
        let binary = CLIRunner.binaryURL.path
        let result = try CLIRunner.runShell(
            "mkdir gone && cd gone && rmdir ../gone && '\(binary)' call t first --stub --targets '\(sandbox.path("targets"))'",
            in: sandbox.root, environment: ["HOME": sandbox.home.path])
        assertRun(result, status: 0, stdout: "first answer", stderr: "")
        XCTAssertEqual(entryNames(), [])
    }

    func testTheCacheCanBeTurnedOffAndAnUnusableFolderIsNoError() throws {
        assertRun(
            try sandbox.run(["call", "t", "first", "--stub"], environment: ["MOYA_NO_LOAD_CACHE": "1"]), status: 0,
            stdout: "first answer", stderr: "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: entries))

        // The cache folder a file, then a link to another folder: the call works and writes nothing there.
        try FileManager.default.createDirectory(
            atPath: sandbox.home.path + "/.cache/moya-cli", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: entries))
        assertRun(try sandbox.run(["call", "t", "first", "--stub"]), status: 0, stdout: "first answer", stderr: "")
        try FileManager.default.removeItem(atPath: entries)
        try sandbox.write("other/keep", "")
        try FileManager.default.createSymbolicLink(atPath: entries, withDestinationPath: sandbox.path("other"))
        assertRun(try sandbox.run(["call", "t", "first", "--stub"]), status: 0, stdout: "first answer", stderr: "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("other")), ["keep"])
    }
}
