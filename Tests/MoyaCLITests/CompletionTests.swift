import CLITestSupport
import Foundation
import XCTest

/// Shell completion of `call`, `curl` and `check`: API names, case names and values come from the
/// target files found when TAB is pressed. Driven through bash with the generated script, as a
/// user's shell would, and through the binary's completion entry point. zsh and fish: see
/// `ShellCompletionTests`.
final class CompletionTests: XCTestCase {
    var fixture: CompletionFixture!
    var bashScript: URL!

    override func setUpWithError() throws {
        fixture = try CompletionFixture()
        bashScript = try fixture.folder.write("moya-cli.bash", try fixture.completionScript("bash"))
    }

    var folder: TemporaryFolder { fixture.folder }
    var environment: [String: String] { fixture.environment }

    /// What bash offers (COMPREPLY) for the last of `words`, the cursor at its end.
    func bashCompletions(_ words: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let driver = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            _moya-cli moya-cli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver, "bash", bashScript.path] + words
        process.currentDirectoryURL = folder.url
        let binaryFolder = CLIRunner.binaryURL.deletingLastPathComponent().path
        process.environment = environment.merging([
            "PATH": binaryFolder + ":/usr/bin:/bin", "HOME": folder.url.path
        ]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, file: file, line: line)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testBashCompletesAPIsCasesAndValuesFromTheTargetFiles() throws {
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "gi"]), ["github"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "lo"]), ["local"], "./targets is searched at completion time")
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "github", "user"]),
            ["userProfile", "userRepositories", "userFollowers"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "curl", "local", ""]), ["search", "submit"])

        // Positional values in declared order: a string offers nothing, then the enum's cases, then bool.
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", ""]), [])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "local", "search", "moya", ""]), ["stars", "forks", "updated"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", "moya", "f"]), ["forks"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "local", "search", "moya", "stars", ""]), ["true", "false"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "github", "repoIssues", "Moya", "Moya", ""]),
            ["open", "closed", "all"])

        // Named values: the names not given yet, next to call's own options; then a name's values.
        let named = try bashCompletions(["moya-cli", "call", "local", "search", "moya", "--"])
        XCTAssertTrue(named.contains("--sort") && named.contains("--draft") && named.contains("--stub"), "\(named)")
        XCTAssertFalse(named.contains("--q"), "q is given by position: \(named)")
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", "--sort", "u"]), ["updated"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "local", "search", "--stub", "--draft", ""]), ["true", "false"])
    }

    func testBashCompletesFileValuesWithPaths() throws {
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "local", "submit", "files/"]),
            ["files/deeper/", "files/notes.txt", "files/report.pdf"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "submit", "files/r"]), ["files/report.pdf"])
    }

    func testTargetsOptionOnTheCommandLineIsHonoured() throws {
        let elsewhere = fixture.elsewhere.path
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "--targets", elsewhere + "/other.yaml", "ot"]), ["other"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "curl", "--targets", "'\(elsewhere)'", "other", "p"]), ["ping"],
            "the word as typed, quotes included")
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "curl", "--targets", elsewhere.replacing(" ", with: "\\ "), "other", "p"]),
            ["ping"])
    }

    func testBashCompletesCheckAPIsAndCasePatterns() throws {
        XCTAssertEqual(try bashCompletions(["moya-cli", "check", "gi"]), ["github"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "check", "github", "lo"]), ["local"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "check", "local", "github", "gi"]), [],
            "an API named already is not offered again")
        XCTAssertEqual(try bashCompletions(["moya-cli", "check", "--report", "junit:out.xml", "gi"]), ["github"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "check", "github", "--only", "user"]),
            ["userProfile", "userRepositories", "userFollowers"], "one API named: its case names")
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "check", "--skip", "local.s"]), ["local.search", "local.submit"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "check", "--targets", fixture.elsewhere.path, "--only", "ot"]),
            ["other.ping"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "check", "--targets", fixture.elsewhere.path, "ot"]), ["other"])
    }

    /// bash's script expands candidates as shell words (`compgen -W`); they come escaped, so they
    /// come back as they are (bash quotes them when inserting) and a command substitution in a
    /// target file does not run.
    func testBashCandidatesSurviveCompgenAndNeverRun() throws {
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "quirky", "pick", ""]),
            ["a:b", "two words", "x'y", "$(touch PWNED)"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "quirky", "pick", "two\\ w"]), ["two words"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "submit", "quirks/m"]), ["quirks/my file.txt"])
        XCTAssertFalse(fixture.commandSubstitutionRan)
    }

    func testCompletionEntryPointAsTheShellsCallIt() throws {
        let result = try CLIRunner.run(
            ["---completion", "call", "--", "positional@0", "3", "4", "moya-cli", "call", "github", "user"],
            environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n"), ["userProfile", "userRepositories", "userFollowers"])

        let unknownAPI = try CLIRunner.run(
            ["---completion", "call", "--", "positional@0", "3", "0", "moya-cli", "call", "nope", ""],
            environment: environment)
        XCTAssertEqual(unknownAPI.status, 0)
        XCTAssertEqual(
            unknownAPI.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "",
            "an unknown API offers nothing rather than an error")
    }

    func testEveryScriptUsesTheCustomCompletion() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try fixture.completionScript(shell)
            for call in [
                "---completion call -- positional@0", "---completion curl -- positional@0",
                "---completion check -- positional@0",
                "---completion check -- --only", "---completion check -- --skip"
            ] {
                XCTAssertTrue(script.contains(call), "\(shell): \(call)")
            }
        }
    }
}

extension CompletionTests {
    /// Issue 13, item 9: `--env`, `--sample`, `list`, `validate` and `help` complete too.
    func testEnvironmentsSamplesListAndValidateComplete() throws {
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "call", "github", "branches", "Moya", "Moya", "--stub", "--sample", ""]),
            ["ok", "missing", "offline"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "github", "branches", "--sample", "m"]), ["missing"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "list", "gi"]), ["github"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "list", "lo"]), ["local"])
        let environments = try bashCompletions(["moya-cli", "call", "httpbin", "getPlain", "--env", ""])
        XCTAssertFalse(environments.isEmpty, "httpbin's environments")
        XCTAssertEqual(try bashCompletions(["moya-cli", "check", "httpbin", "--env", ""]), environments)
        try folder.write("targets/extra.yml", "api: extra\nbaseURL: http://x\ncases: {a: {path: /a}}\n")
        let files = try bashCompletions(["moya-cli", "validate", "targets/"])
        XCTAssertTrue(files.contains("targets/local.yaml") && files.contains("targets/extra.yml"), "\(files)")
        XCTAssertEqual(try bashCompletions(["moya-cli", "help", "c"]), ["call", "curl", "check"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "help", "a"]), ["auth"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "auth", "httpbin-o"]), ["httpbin-oauth"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "auth", "httpbin-oauth", "--scheme", ""]), ["service", "cli"])
        for shell in ["zsh", "fish"] {
            let script = try fixture.completionScript(shell)
            XCTAssertTrue(
                script.contains("list validate call request curl check"), "\(shell): help offers the subcommands")
        }
    }
}
