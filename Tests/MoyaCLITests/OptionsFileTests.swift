import CLITestSupport
import Foundation
import XCTest

/// Issue 47 (item 8): default options per command in `$XDG_CONFIG_HOME/moya/config.yaml`, as
/// curl's `.curlrc`: the command line wins, `--no-config` skips it, never read from the current
/// folder, refused when others may write it, errors at their line and column.
final class OptionsFileTests: XCTestCase {
    private var sandbox: Sandbox!
    private var configuration: String { sandbox.root.path + "/xdg/moya/config.yaml" }

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/web.yaml", "baseURL: https://api.example.com\ncases:\n  zen: {path: /zen, sample: ok}\n")
    }

    private func writeConfiguration(_ text: String, mode: mode_t = 0o600) throws {
        _ = try sandbox.write("xdg/moya/config.yaml", text)
        XCTAssertEqual(chmod(configuration, mode), 0)
    }

    private func run(_ arguments: [String], xdg: String? = nil) throws -> CLIResult {
        try sandbox.run(arguments, environment: ["XDG_CONFIG_HOME": xdg ?? sandbox.root.path + "/xdg"])
    }

    func testTheFilesOptionsComeFirstAndTheCommandLineWins() throws {
        try writeConfiguration(
            """
            # defaults
            curl: [--timeout, "30", -H, "X-From: config"]
            list: [--format, json]

            """)
        let curl = try run(["curl", "web", "zen"])
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(curl.stdout.contains("--max-time 30"), curl.stdout)
        XCTAssertTrue(curl.stdout.contains("-H 'X-From: config'"), curl.stdout)
        let overridden = try run(["curl", "web", "zen", "--timeout", "5", "-H", "X-From: line"])
        XCTAssertTrue(overridden.stdout.contains("--max-time 5"), overridden.stdout)
        XCTAssertTrue(overridden.stdout.contains("-H 'X-From: line'"), overridden.stdout)
        XCTAssertFalse(overridden.stdout.contains("X-From: config"), overridden.stdout)
        let list = try run(["list", "web"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.hasPrefix("{") || list.stdout.hasPrefix("["), list.stdout)
        XCTAssertTrue(try run(["list", "web", "--format", "table"]).stdout.hasPrefix("CASE"))
        let skipped = try run(["curl", "web", "zen", "--no-config"])
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertFalse(skipped.stdout.contains("--max-time"), "no total limit by default: \(skipped.stdout)")
        XCTAssertFalse(skipped.stdout.contains("X-From"), skipped.stdout)
    }

    func testNeverTheCurrentFoldersAndNeverOneOthersMayWrite() throws {
        // A cloned repository's config files, where a relative XDG_CONFIG_HOME would point.
        _ = try sandbox.write("config.yaml", "curl: [--proxy, \"http://evil:1\"]\n")
        _ = try sandbox.write("moya/config.yaml", "curl: [--proxy, \"http://evil:1\"]\n")
        let relative = try run(["curl", "web", "zen"], xdg: ".")
        XCTAssertEqual(relative.status, 0, relative.stderr)
        XCTAssertFalse(relative.stdout.contains("evil"), relative.stdout)

        try writeConfiguration("curl: [--proxy, \"http://evil:1\"]\n", mode: 0o666)
        let shared = try run(["curl", "web", "zen"])
        XCTAssertEqual(shared.status, 64)
        XCTAssertEqual(
            shared.stderr,
            "moya-cli: error: the options file \(configuration) may be written by others (mode 666): its options would be theirs; chmod go-w \(configuration), or give --no-config\n"
        )
        XCTAssertEqual(try run(["curl", "web", "zen", "--no-config"]).status, 0)
        if getuid() == 0 {
            XCTAssertEqual(chmod(configuration, 0o600), 0)
            XCTAssertEqual(chown(configuration, 65534, 65534), 0)
            let foreign = try run(["curl", "web", "zen"])
            XCTAssertEqual(foreign.status, 64)
            XCTAssertTrue(foreign.stderr.contains("belongs to another user"), foreign.stderr)
        }
    }

    func testMistakesAreSaidAtTheirPlace() throws {
        for (text, message) in [
            ("cal: [--x]\n", "1:1: 'cal' is not a command (did you mean 'call'?)"),
            ("curl: [x, --y]\n", "1:8: 'x' is no option: the list starts with one (--name or -x)"),
            ("curl: --timeout\n", "1:7: 'curl' takes a list of options, like [--retry, \"2\"]"),
            ("curl: [--a, [b]]\n", "1:13: an option or its value is one word (a string)"),
            ("- curl\n", "1:1: the options file is a map of commands to lists of options"),
            ("curl: [--x\n", "2:1: invalid YAML")
        ] {
            try writeConfiguration(text)
            let result = try run(["curl", "web", "zen"])
            XCTAssertEqual(result.status, 65, text)
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: \(configuration):\(message)"), result.stderr)
        }
    }
}
