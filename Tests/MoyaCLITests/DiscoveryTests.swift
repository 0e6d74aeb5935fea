import CLITestSupport
import Foundation
import XCTest

/// Where target files are found, with real folders at every level: `--targets` >
/// `$MOYA_TARGETS` (else `$MOYA_TARGETS_PATH`) > `./targets` > `$XDG_CONFIG_HOME/moya/targets` (else
/// `~/.config/moya/targets`) > `<prefix>/share/moya-cli/targets`; and how diagnostics look
/// when they are not on a terminal.
final class DiscoveryTests: XCTestCase {
    private var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    override func tearDown() {
        sandbox = nil
    }

    /// One `list --format json` entry: file, level and the file that shadows it.
    private struct Listed: Equatable, CustomStringConvertible {
        var file: String
        var source: String
        var shadowedBy: String?
        var description: String { "\(file) [\(source)]" + (shadowedBy.map { " shadowed by \($0)" } ?? "") }
    }

    private func listed(_ result: CLIResult, file: StaticString = #filePath, line: UInt = #line) throws -> [Listed] {
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], file: file, line: line)
        let apis = try XCTUnwrap(document["apis"] as? [[String: Any]], file: file, line: line)
        return apis.map { api in
            Listed(
                file: api["file"] as? String ?? "?", source: api["source"] as? String ?? "?",
                shadowedBy: api["shadowedBy"] as? String)
        }
    }

    /// Copies the binary to `<sandbox>/prefix/bin/moya-cli`, so `<sandbox>/prefix/share/moya-cli/targets`
    /// is its share folder.
    private func installBinary() throws -> URL {
        let installed = sandbox.root.appendingPathComponent("prefix/bin/moya-cli")
        try FileManager.default.createDirectory(
            at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLIRunner.binaryURL, to: installed)
        return installed
    }

    /// A variable defined twice in the environment has its first value, as getenv(3) answers
    /// (the shell and every C program the user runs see the same); `Process` cannot pass such an
    /// environment, so the binary is spawned directly.
    func testAVariableDefinedTwiceHasItsFirstValue() throws {
        try sandbox.write("first/probe.yaml", Fixture.api("probe", description: "first"))
        try sandbox.write("second/probe.yaml", Fixture.api("probe", description: "second"))
        let output = sandbox.path("list.txt")
        let arguments = [CLIRunner.binaryURL.path, "list", "--format", "json"]
        let environment = [
            "PATH=/usr/bin:/bin", "HOME=\(sandbox.path("home"))",
            "MOYA_TARGETS_PATH=\(sandbox.path("first"))", "MOYA_TARGETS_PATH=\(sandbox.path("second"))"
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        XCTAssertEqual(posix_spawn(&pid, arguments[0], &actions, nil, argv, envp), 0)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, 0), pid)
        XCTAssertEqual(status, 0)
        let listed = try listed(
            CLIResult(status: 0, stdout: "", stderr: "", stdoutData: Data(contentsOf: URL(fileURLWithPath: output))))
        // (The working folder is the test's own, whose ./targets level is listed too.)
        XCTAssertEqual(
            listed.filter { $0.source == "MOYA_TARGETS_PATH" },
            [Listed(file: sandbox.path("first") + "/probe.yaml", source: "MOYA_TARGETS_PATH")])
    }

    func testEachLevelBeatsTheNext() throws {
        let binary = try installBinary()
        let probe = { (description: String) in Fixture.api("probe", description: description) }
        try sandbox.write("flag/probe.yaml", probe("from --targets"))
        try sandbox.write("env/probe.yaml", probe("from MOYA_TARGETS_PATH"))
        try sandbox.write("targets/probe.yaml", probe("from ./targets"))
        try sandbox.write("xdg/moya/targets/probe.yaml", probe("from XDG_CONFIG_HOME"))
        try sandbox.write("home/.config/moya/targets/probe.yaml", probe("from HOME"))
        try sandbox.write("prefix/share/moya-cli/targets/probe.yaml", probe("from the share folder"))
        let xdgFile = sandbox.path("xdg/moya/targets/probe.yaml")
        let homeFile = sandbox.path("home/.config/moya/targets/probe.yaml")
        let shareFile = sandbox.path("prefix/share/moya-cli/targets/probe.yaml")
        let environment = ["MOYA_TARGETS_PATH": "env", "XDG_CONFIG_HOME": sandbox.path("xdg")]

        // Every level at once: the first wins, the others are shown shadowed by it, in order.
        // With XDG_CONFIG_HOME set, ~/.config is not searched at all.
        XCTAssertEqual(
            try listed(
                sandbox.run(["list", "--format", "json", "--targets", "flag"], environment: environment, binary: binary)
            ),
            [
                Listed(file: "flag/probe.yaml", source: "--targets"),
                Listed(file: "env/probe.yaml", source: "MOYA_TARGETS_PATH", shadowedBy: "flag/probe.yaml"),
                Listed(file: "targets/probe.yaml", source: "./targets", shadowedBy: "flag/probe.yaml"),
                Listed(file: xdgFile, source: "user configuration", shadowedBy: "flag/probe.yaml"),
                Listed(file: shareFile, source: "share folder", shadowedBy: "flag/probe.yaml")
            ])
        // Then each level in turn is taken away and the next one wins.
        XCTAssertEqual(
            try listed(sandbox.run(["list", "--format", "json"], environment: environment, binary: binary)).first,
            Listed(file: "env/probe.yaml", source: "MOYA_TARGETS_PATH"))
        XCTAssertEqual(
            try listed(
                sandbox.run(
                    ["list", "--format", "json"], environment: ["XDG_CONFIG_HOME": sandbox.path("xdg")], binary: binary)
            ).first,
            Listed(file: "targets/probe.yaml", source: "./targets"))
        try FileManager.default.removeItem(atPath: sandbox.path("targets"))
        XCTAssertEqual(
            try listed(
                sandbox.run(
                    ["list", "--format", "json"], environment: ["XDG_CONFIG_HOME": sandbox.path("xdg")], binary: binary)
            ),
            [
                Listed(file: xdgFile, source: "user configuration"),
                Listed(file: shareFile, source: "share folder", shadowedBy: xdgFile)
            ])
        XCTAssertEqual(
            try listed(sandbox.run(["list", "--format", "json"], binary: binary)),
            [
                Listed(file: homeFile, source: "user configuration"),
                Listed(file: shareFile, source: "share folder", shadowedBy: homeFile)
            ])
        // A relative XDG_CONFIG_HOME is ignored (XDG base directory specification): ~/.config is used.
        XCTAssertEqual(
            try listed(
                sandbox.run(["list", "--format", "json"], environment: ["XDG_CONFIG_HOME": "xdg"], binary: binary)
            ).first,
            Listed(file: homeFile, source: "user configuration"))
        try FileManager.default.removeItem(atPath: homeFile)
        XCTAssertEqual(
            try listed(sandbox.run(["list", "--format", "json"], binary: binary)),
            [
                Listed(file: shareFile, source: "share folder")
            ])
        let winner = try sandbox.run(["list", "probe"], binary: binary)
        XCTAssertEqual(winner.status, 0, winner.stderr)
        try FileManager.default.removeItem(atPath: shareFile)
        assertRun(
            try sandbox.run(["list", "probe"], binary: binary), status: 64, stdout: "",
            stderr: """
                moya-cli: error: unknown API 'probe'; searched: ./targets (missing), \(sandbox.home.path)/.config/moya/targets (user configuration), \
                \(sandbox.path("prefix/share/moya-cli/targets")) (share folder); there are no APIs

                """)
    }

    func testTheWinnerIsTheAPIThatListDescribes() throws {
        try sandbox.write("flag/probe.yaml", Fixture.api("probe", baseURL: "https://flag.example"))
        try sandbox.write("env/probe.yaml", Fixture.api("probe", baseURL: "https://env.example"))
        try sandbox.write("targets/probe.yaml", Fixture.api("probe", baseURL: "https://cwd.example"))
        let environment = ["MOYA_TARGETS_PATH": "env"]
        assertRun(
            try sandbox.run(["list", "--targets", "flag"], environment: environment), status: 0,
            stdout: """
                API    CASES  TRUST      FILE                DESCRIPTION
                probe  1      untrusted  flag/probe.yaml
                probe  -      -          env/probe.yaml      shadowed by flag/probe.yaml
                probe  -      -          targets/probe.yaml  shadowed by flag/probe.yaml

                """, stderr: "")
        for (arguments, baseURL) in [
            (["--targets", "flag"], "https://flag.example"), ([], "https://env.example")
        ] {
            let result = try sandbox.run(["list", "probe", "--format", "json"] + arguments, environment: environment)
            let api = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
            XCTAssertEqual(api["baseURL"] as? String, baseURL)
        }
        let cwd = try sandbox.run(["list", "probe", "--format", "json"])
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: cwd.stdoutData) as? [String: Any])?["baseURL"] as? String,
            "https://cwd.example")
    }

    func testTargetsAndMoyaTargetsPathTakeFilesAndSeveralEntries() throws {
        try sandbox.write("one/alpha.yaml", Fixture.api("alpha"))
        try sandbox.write("two/beta.yml", Fixture.api("beta"))
        try sandbox.write("single.yaml", Fixture.api("gamma"))
        // Colon-separated; an empty entry is skipped, a missing one warned about.
        assertRun(
            try sandbox.run(["list"], environment: ["MOYA_TARGETS_PATH": "one:two:missing::single.yaml"]), status: 0,
            stdout: """
                API    CASES  TRUST      FILE            DESCRIPTION
                alpha  1      untrusted  one/alpha.yaml
                beta   1      untrusted  two/beta.yml
                gamma  1      untrusted  single.yaml

                """,
            stderr: """
                missing: warning: MOYA_TARGETS_PATH names 'missing', which does not exist; skipped

                """)
        // An absolute entry is shown as written.
        let absolute = try sandbox.run(["validate"], environment: ["MOYA_TARGETS_PATH": sandbox.path("two")])
        assertRun(absolute, status: 0, stdout: "\(sandbox.path("two"))/beta.yml: ok (API 'beta', 1 case)\n", stderr: "")
        assertRun(
            try sandbox.run(["validate", "--targets", "single.yaml", "--targets", "one"]), status: 0,
            stdout: """
                single.yaml: ok (API 'gamma', 1 case)
                one/alpha.yaml: ok (API 'alpha', 1 case)

                """, stderr: "")
    }

    func testSameAPITwiceAtOneLevelIsAnErrorNamingBothFiles() throws {
        try sandbox.write("targets/a.yaml", Fixture.api("dup"))
        try sandbox.write("targets/b.yaml", Fixture.api("dup", baseURL: "https://b.example"))
        let message =
            "targets/b.yaml: error: API 'dup' is defined twice at the same level (./targets): targets/a.yaml and targets/b.yaml; rename one with 'api:'\n"
        assertRun(
            try sandbox.run(["list"]), status: 65,
            stdout: """
                API  CASES  TRUST      FILE            DESCRIPTION
                dup  1      untrusted  targets/a.yaml
                dup  -      -          targets/b.yaml  error: defined again at the same level as targets/a.yaml

                """, stderr: message + "moya-cli: error: some target files are invalid (see above)\n")
        assertRun(
            try sandbox.run(["validate"]), status: 65,
            stdout: """
                targets/a.yaml: ok (API 'dup', 1 case)
                targets/b.yaml: invalid (1 error)

                """, stderr: message + "moya-cli: error: 1 error in target files\n")
        let json = try sandbox.run(["list", "--format", "json"])
        XCTAssertEqual(json.status, 65)
        let apis = try XCTUnwrap(
            (JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["apis"] as? [[String: Any]])
        XCTAssertEqual(apis.map { $0["valid"] as? Bool }, [true, false])
        XCTAssertEqual(apis.map { $0["shadowedBy"] as? String }, [nil, "targets/a.yaml"])

        // Two `--targets` paths are one level too.
        try sandbox.write("x/dup.yaml", Fixture.api("dup"))
        try sandbox.write("y/dup.yaml", Fixture.api("dup"))
        let explicit = try sandbox.run(["validate", "--targets", "x", "--targets", "y"])
        XCTAssertEqual(explicit.status, 65)
        XCTAssertTrue(
            explicit.stderr.hasPrefix(
                "y/dup.yaml: error: API 'dup' is defined twice at the same level (--targets): x/dup.yaml and y/dup.yaml; rename one with 'api:'\n"
            ), explicit.stderr)
    }

    /// `call`, `curl`, `list API` and `call API --help` read levels only until the one that
    /// defines the API: a broken file further down defining another API is not reported.
    func testAnAPIFoundEarlyIgnoresLaterLevels() throws {
        try sandbox.write("flag/probe.yaml", Fixture.api("probe", baseURL: "https://flag.example"))
        try sandbox.write("targets/broken.yaml", Fixture.broken)
        assertRun(
            try sandbox.run(["call", "probe", "ping", "--stub", "--targets", "flag"]), status: 0, stdout: "pong",
            stderr: "")
        assertRun(
            try sandbox.run(["curl", "probe", "ping", "--targets", "flag"]), status: 0,
            stdout: """
                curl -L --max-redirs 10 --connect-timeout 10 --speed-limit 1 --speed-time 60 --compressed -H 'User-Agent: moya-cli/0.1.0' 'https://flag.example/ping'

                """, stderr: "")
        let listed = try sandbox.run(["list", "probe", "--targets", "flag"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stderr, "")
        XCTAssertTrue(listed.stdout.contains("ping  GET     /ping"), listed.stdout)
        let help = try sandbox.run(["call", "probe", "--help", "--targets", "flag"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertEqual(help.stderr, "")
        XCTAssertTrue(help.stdout.hasPrefix("USAGE: moya-cli call probe <case> [values...]"), help.stdout)

        // The broken file is still what answers for its own name, and an unknown name still
        // lists the APIs of every level, and the places searched.
        let searched =
            "flag (--targets), ./targets, \(sandbox.home.path)/.config/moya/targets (user configuration, missing), "
            + "\(ValidateCommandTests.shareFolder) (share folder, missing)"
        assertRun(
            try sandbox.run(["call", "broken", "ping", "--stub", "--targets", "flag"]), status: 65, stdout: "",
            stderr: Fixture.brokenDiagnostics("targets/broken.yaml")
                + "moya-cli: error: API 'broken' is defined by targets/broken.yaml, which has errors; run 'moya-cli validate targets/broken.yaml'\n"
        )
        assertRun(
            try sandbox.run(["call", "probes", "ping", "--stub", "--targets", "flag"]), status: 64, stdout: "",
            stderr: """
                moya-cli: error: unknown API 'probes'; searched: \(searched); did you mean 'probe'?

                """)
        assertRun(
            try sandbox.run(["call", "nope", "ping", "--stub", "--targets", "flag"]), status: 64, stdout: "",
            stderr: """
                moya-cli: error: unknown API 'nope'; searched: \(searched); valid APIs: probe, broken

                """)
    }

    func testAnAPIFoundEarlyShadowsTheSameNameLaterSilently() throws {
        try sandbox.write("flag/probe.yaml", Fixture.api("probe"))
        try sandbox.write(
            "targets/probe.yaml",
            """
            api: probe
            baseURL: https://cwd.example
            cases:
              ping: {path: /ping, sample: from ./targets}

            """)
        assertRun(
            try sandbox.run(["call", "probe", "ping", "--stub", "--targets", "flag"]), status: 0, stdout: "pong",
            stderr: "")
        assertRun(try sandbox.run(["call", "probe", "ping", "--stub"]), status: 0, stdout: "from ./targets", stderr: "")
    }

    func testOneFileReachedTwiceIsNotADuplicate() throws {
        try sandbox.write("targets/solo.yaml", Fixture.api("solo"))
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("link"), withDestinationPath: sandbox.path("targets"))
        assertRun(
            try sandbox.run(["list", "--targets", "link", "--targets", "targets/solo.yaml"]), status: 0,
            stdout: """
                API   CASES  TRUST      FILE            DESCRIPTION
                solo  1      untrusted  link/solo.yaml

                """, stderr: "")
    }

    func testMissingTargetsPathIsAUsageError() throws {
        try sandbox.write("targets/solo.yaml", Fixture.api("solo"))
        for command in [["list"], ["list", "solo"], ["validate"]] {
            assertRun(
                try sandbox.run(command + ["--targets", "nowhere"]), status: 64, stdout: "",
                stderr: """
                    moya-cli: error: --targets path 'nowhere' does not exist

                    """)
        }
    }

    func testNoEscapeCodesWhenNotATerminal() throws {
        try sandbox.write("targets/broken.yaml", Fixture.broken)
        for environment in [[:], ["NO_COLOR": "1"], ["TERM": "xterm-256color"]] {
            for command in [
                ["list"], ["validate"], ["list", "broken"], ["validate", "targets/broken.yaml", "--no-color"]
            ] {
                let result = try sandbox.run(command, environment: environment)
                XCTAssertEqual(result.status, 65)
                XCTAssertTrue(
                    result.stderr.contains("targets/broken.yaml:4:5: error: unknown key 'pth'"), result.stderr)
                XCTAssertFalse(result.stderr.contains("\u{1B}"), "\(command) \(environment): \(result.stderr)")
                XCTAssertFalse(result.stdout.contains("\u{1B}"), "\(command) \(environment): \(result.stdout)")
            }
        }
    }

    /// On a terminal (a pseudo-terminal from script(1)) diagnostics are colored, unless
    /// `NO_COLOR`, `--no-color` or `TERM=dumb` says not to.
    func testColorsOnATerminalOnlyWhenAllowed() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw XCTSkip("script(1) is needed for a pseudo-terminal")
        }
        try sandbox.write("targets/broken.yaml", Fixture.broken)
        func onTerminal(_ arguments: String, _ environment: [String: String] = [:]) throws -> CLIResult {
            try CLIRunner.run(
                ["-qec", "\(CLIRunner.binaryURL.path) \(arguments)", "/dev/null"],
                environment: ["HOME": sandbox.home.path, "TERM": "xterm"].merging(environment) { _, new in new },
                currentDirectory: sandbox.root, binary: script)
        }
        let colored = try onTerminal("validate targets/broken.yaml")
        XCTAssertEqual(colored.status, 65)
        XCTAssertTrue(
            colored.stdout.contains(
                "\u{1B}[1mtargets/broken.yaml:4:5: \u{1B}[1;31merror:\u{1B}[0m\u{1B}[1m unknown key 'pth' in case 'ping'; did you mean 'path'?\u{1B}[0m"
            ),
            colored.stdout)
        for (arguments, environment) in [
            ("validate targets/broken.yaml", ["NO_COLOR": "1"]), ("validate --no-color targets/broken.yaml", [:]),
            ("validate targets/broken.yaml", ["TERM": "dumb"]), ("list --no-color", [:])
        ] {
            let plain = try onTerminal(arguments, environment)
            XCTAssertEqual(plain.status, 65)
            XCTAssertTrue(plain.stdout.contains("targets/broken.yaml:4:5: error: unknown key 'pth'"), plain.stdout)
            XCTAssertFalse(plain.stdout.contains("\u{1B}"), "\(arguments) \(environment): \(plain.stdout)")
        }
    }

    /// Issue 28, item 5: from a folder without `./targets`, an unknown API names every place
    /// searched, in order, with its level, and which were missing; so does an empty `list`.
    func testAnUnknownAPIFromAnotherFolderNamesTheFoldersSearched() throws {
        try sandbox.write("project/targets/hb.yaml", Fixture.api("hb"))
        try sandbox.write("apis/other.yaml", Fixture.api("other"))
        let user = "\(sandbox.home.path)/.config/moya/targets (user configuration, missing)"
        let share = "\(ValidateCommandTests.shareFolder) (share folder, missing)"
        assertRun(
            try sandbox.run(["call", "hb", "ping", "--stub"]), status: 64, stdout: "",
            stderr: """
                moya-cli: error: unknown API 'hb'; searched: ./targets (missing), \(user), \(share); there are no APIs

                """)
        assertRun(
            try sandbox.run(["call", "hb", "ping", "--stub"], environment: ["MOYA_TARGETS": "apis:nowhere"]),
            status: 64, stdout: "",
            stderr: """
                moya-cli: error: unknown API 'hb'; searched: apis (MOYA_TARGETS), nowhere (MOYA_TARGETS, missing), ./targets (missing), \(user), \(share); \
                valid APIs: other

                """)
        assertRun(
            try sandbox.run(["list"]), status: 0, stdout: "",
            stderr: """
                moya-cli: no target files found; searched: ./targets (missing), \(user), \(share); \
                put *.yaml files in ./targets or name them with --targets

                """)
        // Found, the same call reads nothing more than it did (the stub answers).
        assertRun(
            try sandbox.run(["call", "hb", "ping", "--stub"], environment: ["MOYA_TARGETS": "project/targets"]),
            status: 0, stdout: "pong", stderr: "")
    }

    /// `MOYA_TARGETS` is a `:` list read in order, after `--targets` and before `./targets`; it
    /// wins over its older name `MOYA_TARGETS_PATH`, which is read only when it is unset or empty.
    func testMoyaTargetsOrderAndItsOlderName() throws {
        try sandbox.write("b/beta.yaml", Fixture.api("beta"))
        try sandbox.write("a/alpha.yaml", Fixture.api("alpha"))
        try sandbox.write("old/probe.yaml", Fixture.api("probe", description: "from MOYA_TARGETS_PATH"))
        try sandbox.write("new/probe.yaml", Fixture.api("probe", description: "from MOYA_TARGETS"))
        try sandbox.write("targets/probe.yaml", Fixture.api("probe", description: "from ./targets"))
        XCTAssertEqual(
            try listed(sandbox.run(["list", "--format", "json"], environment: ["MOYA_TARGETS": "b:a:new"])),
            [
                Listed(file: "b/beta.yaml", source: "MOYA_TARGETS"),
                Listed(file: "a/alpha.yaml", source: "MOYA_TARGETS"),
                Listed(file: "new/probe.yaml", source: "MOYA_TARGETS"),
                Listed(file: "targets/probe.yaml", source: "./targets", shadowedBy: "new/probe.yaml")
            ])
        let both = ["MOYA_TARGETS": "new", "MOYA_TARGETS_PATH": "old"]
        XCTAssertEqual(
            try listed(sandbox.run(["list", "--format", "json"], environment: both)),
            [
                Listed(file: "new/probe.yaml", source: "MOYA_TARGETS"),
                Listed(file: "targets/probe.yaml", source: "./targets", shadowedBy: "new/probe.yaml")
            ])
        XCTAssertEqual(
            try listed(
                sandbox.run(["list", "--format", "json"], environment: ["MOYA_TARGETS": "", "MOYA_TARGETS_PATH": "old"])
            ),
            [
                Listed(file: "old/probe.yaml", source: "MOYA_TARGETS_PATH"),
                Listed(file: "targets/probe.yaml", source: "./targets", shadowedBy: "old/probe.yaml")
            ])
        let probe = try sandbox.run(["list", "probe", "--format", "json"], environment: both)
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: probe.stdoutData) as? [String: Any])?["description"] as? String,
            "from MOYA_TARGETS")
        assertRun(
            try sandbox.run(["list"], environment: ["MOYA_TARGETS": "missing:b"]), status: 0,
            stdout: """
                API    CASES  TRUST      FILE                DESCRIPTION
                beta   1      untrusted  b/beta.yaml
                probe  1      untrusted  targets/probe.yaml  from ./targets

                """,
            stderr: """
                missing: warning: MOYA_TARGETS names 'missing', which does not exist; skipped

                """)
    }
}
