import CLITestSupport
import Foundation
import TestServers
import XCTest

/// What a target file from a cloned repository can make moya-cli do on the user's machine: no file
/// it steers lands in a trusted folder or the token cache, it reads only the environment variables
/// the user allows, and `list` and help say what each API may do (SECURITY in moya-cli(1)).
final class TrustTests: XCTestCase {
    var sandbox: Sandbox!
    var server: HTTPTestServer!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// `~/.config/moya/targets` and `~/.cache/moya-cli` of the sandbox's HOME.
    var trustedFolder: URL { sandbox.home.appendingPathComponent(".config/moya/targets") }
    var cacheFolder: URL { sandbox.home.appendingPathComponent(".cache/moya-cli") }

    /// Every file under the sandbox's HOME.
    func filesInHome() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: sandbox.home.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }

    /// The issue's attack: run from HOME, a `--targets` file downloads into
    /// `.config/moya/targets/report.yaml`, which would then be trusted and run its command.
    func testADownloadCannotPlantATrustedFileOrADotfile() throws {
        try sandbox.write(
            "repo/planted.yaml",
            """
            api: planted
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              report: {path: /bytes/8, task: {download: .config/moya/targets/report.yaml}, sample: x}
            """)
        let home = sandbox.home
        let load = try CLIRunner.run(
            ["call", "planted", "report", "--targets", "../repo/planted.yaml"],
            environment: ["HOME": home.path], currentDirectory: home)
        XCTAssertEqual(load.status, 65, load.stderr)
        XCTAssertTrue(
            load.stderr.contains(
                "planted.yaml:4:45: error: download destination '.config/moya/targets/report.yaml' names '.config'; "
                    + "a target file may not write dotfiles or into dot-folders"), load.stderr)

        // Built from a value: refused before anything is sent (exit 64), for a dotfile and a dot-folder.
        try sandbox.write(
            "repo/planted.yaml",
            """
            api: planted
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              save:
                values: [{folder: string}, {name: string}]
                path: /bytes/8
                task: {download: "{folder}/{name}"}
                sample: x
            """)
        for (folder, name) in [("out", ".profile"), (".ssh", "authorized_keys"), ("out", ".bashrc")] {
            let result = try CLIRunner.run(
                ["call", "planted", "save", folder, name, "--targets", "../repo/planted.yaml"],
                environment: ["HOME": home.path], currentDirectory: home)
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(
                result.stderr.contains("a target file may not write dotfiles or into dot-folders"), result.stderr)
        }
        XCTAssertEqual(server.receivedRequests.count, 0)

        // A symbolic link in the current folder into the trusted folder: the resolved place decides.
        try FileManager.default.createDirectory(at: trustedFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: home.appendingPathComponent("out").path, withDestinationPath: trustedFolder.path)
        let linked = try CLIRunner.run(
            ["call", "planted", "save", "out", "github.yaml", "--targets", "../repo/planted.yaml"],
            environment: ["HOME": home.path], currentDirectory: home)
        XCTAssertEqual(linked.status, 64, linked.stderr)
        XCTAssertTrue(
            linked.stderr.contains("it would land in \(trustedFolder.path), which moya-cli never writes to"),
            linked.stderr)
        XCTAssertEqual(filesInHome(), [".config", ".config/moya", ".config/moya/targets", "out"])
    }

    /// The user's own `-o`, `--report` and `import -o` do not write there either, whatever the
    /// path's form: becoming trusted is always the user's own act (copying the file in).
    func testNoOutputLandsInATrustedFolderOrTheTokenCache() throws {
        try sandbox.write(
            "targets/plain.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              hello: {path: /anything, sample: {json: {ok: true}}}
            """)
        try FileManager.default.createDirectory(at: trustedFolder, withIntermediateDirectories: true)
        let trustedByVariable = sandbox.root.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: trustedByVariable, withIntermediateDirectories: true)
        let variables = ["MOYA_TRUSTED_TARGETS": trustedByVariable.path]
        let places = [
            "home/.config/moya/targets/x.yaml", "home/.config/moya/targets/sub/x.yaml",
            "home/new/../.config/moya/targets/x.yaml",
            "home/.cache/moya-cli/oauth2-x.json", "mine/x.yaml", "./mine/../mine/x.yaml"
        ]
        for place in places {
            let output = try sandbox.run(
                ["call", "plain", "hello", "--stub", "-o", place, "--force"], environment: variables)
            XCTAssertEqual(output.status, 64, "\(place): \(output.stderr)")
            XCTAssertTrue(
                output.stderr.contains(
                    "which moya-cli never writes to (a trusted target folder, the trust store, the token cache or the sessions"
                ),
                output.stderr)
            let report = try sandbox.run(["check", "plain", "--report", "json:" + place], environment: variables)
            XCTAssertEqual(report.status, 64, "\(place): \(report.stderr)")
            let imported = try sandbox.run(
                [
                    "import", "openapi",
                    CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi/petstore.yaml").path,
                    "-o", place
                ], environment: variables)
            XCTAssertEqual(imported.status, 64, "\(place): \(imported.stderr)")
        }
        XCTAssertEqual(filesInHome(), [".config", ".config/moya", ".config/moya/targets"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: trustedByVariable.path), [])
        // A sibling sharing the folder's name as a prefix is no part of it.
        let sibling = try sandbox.run(
            ["call", "plain", "hello", "--stub", "-o", "mine2/x.json"], environment: variables)
        // No such folder: written nowhere, but not refused as protected.
        XCTAssertEqual(sibling.status, 74, sibling.stderr)
        XCTAssertFalse(sibling.stderr.contains("never writes to"), sibling.stderr)
        try FileManager.default.createDirectory(
            at: sandbox.root.appendingPathComponent("mine2"), withIntermediateDirectories: true)
        XCTAssertEqual(
            try sandbox.run(["call", "plain", "hello", "--stub", "-o", "mine2/x.json"], environment: variables).status,
            0)
    }

    /// A file outside the trusted folders cannot send a variable the user did not allow.
    func testAnUntrustedFileReadsOnlyTheVariablesTheUserAllows() throws {
        try sandbox.write(
            "targets/leaky.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            headers:
              X-Leak: "${AWS_SECRET_ACCESS_KEY}"
              X-Fallback: "${AWS_REGION:-none}"
            cases:
              leak: {path: /anything, sample: ok}
            """)
        let canary = "canary-4f1d9b"
        let secrets = ["AWS_SECRET_ACCESS_KEY": canary, "AWS_REGION": "eu-canary"]

        let refused = try sandbox.run(
            ["call", "leaky", "leak"], environment: secrets.merging(["MOYA_ALLOW_ENV": ""]) { $1 })
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "leaky.yaml:3:12: environment variable 'AWS_SECRET_ACCESS_KEY' is set, but this target file is not "
                    + "trusted, so it reads only the variables you allow. It reads 2 variables you have set and it may "
                    + "not: AWS_SECRET_ACCESS_KEY, AWS_REGION. Allow them with "
                    + #"MOYA_ALLOW_ENV="$MOYA_ALLOW_ENV:AWS_SECRET_ACCESS_KEY:AWS_REGION""#
            ),
            refused.stderr)
        XCTAssertFalse(refused.stderr.contains(canary))
        for command in [
            ["curl", "leaky", "leak"], ["call", "leaky", "leak", "--stub", "-v"], ["check", "leaky", "--live"]
        ] {
            let result = try sandbox.run(command, environment: secrets.merging(["MOYA_ALLOW_ENV": ""]) { $1 })
            XCTAssertNotEqual(result.status, 0, "\(command): \(result.stdout)")
            XCTAssertFalse((result.stdout + result.stderr).contains(canary), "\(command)")
        }
        XCTAssertEqual(server.receivedRequests.count, 0)

        // Allowed by name or by prefix: sent. The fallback applies to what is not allowed.
        let byName = try sandbox.run(
            ["call", "leaky", "leak"], environment: secrets.merging(["MOYA_ALLOW_ENV": "AWS_SECRET_ACCESS_KEY"]) { $1 })
        XCTAssertEqual(byName.status, 0, byName.stderr)
        var request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.value(of: "X-Leak"), canary)
        XCTAssertEqual(request.value(of: "X-Fallback"), "none")
        let byPrefix = try sandbox.run(
            ["call", "leaky", "leak"], environment: secrets.merging(["MOYA_ALLOW_ENV": "OTHER, AWS_*"]) { $1 })
        XCTAssertEqual(byPrefix.status, 0, byPrefix.stderr)
        request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.value(of: "X-Fallback"), "eu-canary")

        // A trusted file reads every variable.
        let trusted = try sandbox.run(
            ["call", "leaky", "leak"],
            environment: secrets.merging([
                "MOYA_ALLOW_ENV": "", "MOYA_TRUSTED_TARGETS": sandbox.path("targets")
            ]) { $1 })
        XCTAssertEqual(trusted.status, 0, trusted.stderr)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "X-Leak"), canary)
        XCTAssertEqual(server.receivedRequests.count, 3)
    }

    /// `list` has a TRUST column and, when some API has them, the variables each reads and its
    /// token command; API and case help say the same.
    func testListAndHelpShowWhatEachAPIMayDo() throws {
        try sandbox.write(
            "targets/reader.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            headers: {X-Key: "${READER_KEY}", X-Other: "${OTHER_KEY:-x}"}
            cases:
              one: {path: /one, sample: ok}
            """)
        try sandbox.write(
            "mine/runner.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: command, command: [gh, auth, token]}
            cases:
              two: {path: /two, sample: ok}
            """)
        chmod(sandbox.path("mine/runner.yaml"), 0o644)
        let environment = [
            "MOYA_ALLOW_ENV": "READER_*", "MOYA_TRUSTED_TARGETS": sandbox.path("mine"), "READER_KEY": "k"
        ]
        let list = try sandbox.run(["list", "--targets", "mine"], environment: environment)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(
            list.stdout,
            """
            API     CASES  TRUST      ENVIRONMENT                          COMMAND        FILE                 DESCRIPTION
            runner  1      trusted                                         gh auth token  mine/runner.yaml
            reader  1      untrusted  OTHER_KEY (not allowed), READER_KEY                 targets/reader.yaml

            """)
        let json = try sandbox.run(["list", "--targets", "mine", "--format", "json"], environment: environment)
        let apis = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["apis"] as? [[String: Any]])
        XCTAssertEqual(apis.map { $0["trusted"] as? Bool }, [true, false])
        XCTAssertEqual(apis[0]["commands"] as? [String], ["gh auth token"])
        XCTAssertEqual(
            (apis[1]["environment"] as? [[String: String]])?.map { $0["state"] ?? "" }, ["not allowed", "allowed"])

        let help = try sandbox.run(["call", "reader", "one", "--help"], environment: environment)
        XCTAssertTrue(
            help.stdout.contains(
                """
                  file: targets/reader.yaml
                  trust: untrusted (reads only the variables MOYA_ALLOW_ENV allows; runs no command)
                  environment: OTHER_KEY (not allowed), READER_KEY (allowed)

                """), help.stdout)
        let runnerHelp = try sandbox.run(["call", "runner", "--help", "--targets", "mine"], environment: environment)
        XCTAssertTrue(
            runnerHelp.stdout.contains(
                """
                  trust: trusted (reads any environment variable; may run its token command)
                  command: gh auth token (run for a live call's token)

                """), runnerHelp.stdout)
    }
}
