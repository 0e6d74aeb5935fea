import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 28, item 7: pressing ↑ and Enter works. `-o FILE` replaces its file as curl does (still
/// whole or not at all, still never through to a protected place, still writing through devices
/// and FIFOs); `--report FORMAT:PATH` makes the folders it needs.
final class RerunTests: XCTestCase {
    var sandbox: Sandbox!
    var server: HTTPTestServer!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        server = try HTTPTestServer()
        try sandbox.write(
            "targets/io.yaml",
            """
            api: io
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            cases:
              bytes:
                values: [{size: int}]
                path: /bytes/{size}
                sample: {text: "abc"}
                examples: [[5]]
            """)
    }

    override func tearDown() {
        server.stop()
    }

    /// `~/.config/moya/targets` of the sandbox's HOME: trusted, so nothing moya-cli writes lands there.
    var trustedFolder: URL { sandbox.home.appendingPathComponent(".config/moya/targets") }

    func testARerunOfDashOThroughALinkIntoAProtectedFolderIsStillRefused() throws {
        try FileManager.default.createDirectory(at: trustedFolder, withIntermediateDirectories: true)
        try Data("api: mine\n".utf8).write(to: trustedFolder.appendingPathComponent("mine.yaml"))
        XCTAssertEqual(symlink(trustedFolder.appendingPathComponent("mine.yaml").path, sandbox.path("out.json")), 0)
        for extra in [[], ["--force"]] {
            let result = try sandbox.run(["call", "io", "bytes", "5", "-o", "out.json"] + extra)
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertEqual(
                result.stderr,
                "moya-cli: error: not writing out.json: it would land in \(trustedFolder.path), which moya-cli never writes "
                    + "to (a trusted target folder, the trust store, the token cache or the sessions; see SECURITY in moya-cli(1))\n"
            )
        }
        XCTAssertEqual(server.receivedRequests.count, 0, "refused before anything is sent")
        XCTAssertEqual(
            try String(contentsOf: trustedFolder.appendingPathComponent("mine.yaml"), encoding: .utf8), "api: mine\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: trustedFolder.path), ["mine.yaml"])
    }

    /// A disk is not a file to replace: `-o` to a block device still needs `--force`.
    func testDashOToABlockDeviceStillNeedsForce() throws {
        try XCTSkipUnless(getuid() == 0, "device nodes need root")
        // A loop device's numbers; nothing is written to it (the call is refused before sending).
        XCTAssertEqual(
            mknod(sandbox.path("disk"), S_IFBLK | 0o600, dev_t((7 << 8) | 0)), 0, String(cString: strerror(errno)))
        assertRun(
            try sandbox.run(["call", "io", "bytes", "5", "-o", "disk"]), status: 64, stdout: "",
            stderr: "moya-cli: error: disk is a block device; pass --force to write to it\n")
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testAReportIntoMissingFoldersMakesThemAsMkdirP() throws {
        let command =
            "umask 022 && \(CLIRunner.binaryURL.path) check io --report junit:reports/ci/check.xml --report tap:reports/tap/x.tap"
        let first = try CLIRunner.runShell(command, in: sandbox.root)
        XCTAssertEqual(first.status, 0, first.stderr)
        let report = try String(contentsOfFile: sandbox.path("reports/ci/check.xml"), encoding: .utf8)
        XCTAssertTrue(report.hasPrefix("<?xml"), report)
        XCTAssertTrue(
            try String(contentsOfFile: sandbox.path("reports/tap/x.tap"), encoding: .utf8).hasPrefix("TAP version"))
        for folder in ["reports", "reports/ci", "reports/tap"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path(folder))
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o755, folder)
        }
        // A rerun replaces the report.
        try Data("old".utf8).write(to: URL(fileURLWithPath: sandbox.path("reports/ci/check.xml")))
        XCTAssertEqual(try CLIRunner.runShell(command, in: sandbox.root).status, 0)
        XCTAssertTrue(
            try String(contentsOfFile: sandbox.path("reports/ci/check.xml"), encoding: .utf8).hasPrefix("<?xml"))

        // A file where a folder is needed: exit 74, and no folder or temporary file is left.
        try sandbox.write("plain.txt", "x")
        let blocked = try sandbox.run(["check", "io", "--report", "json:plain.txt/sub/r.json"])
        XCTAssertEqual(blocked.status, 74, blocked.stderr)
        XCTAssertTrue(
            blocked.stderr.hasSuffix(
                "moya-cli: error: cannot write the json report: cannot write \(sandbox.path("plain.txt/sub/r.json")): "
                    + "cannot create folder \(sandbox.path("plain.txt/sub")): Not a directory\n"), blocked.stderr)
        XCTAssertEqual(try String(contentsOfFile: sandbox.path("plain.txt"), encoding: .utf8), "x")
    }
}
