import Foundation
import XCTest

/// Shell completion of `call` and `curl`: API names, case names and values come from the target
/// files found when TAB is pressed. Driven through bash with the generated script, as a user's
/// shell would, and through the binary's completion entry point.
final class CompletionTests: XCTestCase {
    var folder: TemporaryFolder!
    var bashScript: URL!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try folder.write("targets/local.yaml", """
            api: local
            baseURL: http://127.0.0.1:1
            cases:
              search:
                values: [{q: string}, {sort: {enum: [stars, forks, updated], default: stars}}, {draft: {type: bool, default: false}}]
                path: /search
                task: {parameters: {q: "{q}", sort: "{sort}", draft: "{draft}"}, encoding: url}
              submit:
                method: PUT
                values: [{attachment: file}]
                path: /upload
                task: {upload: "{attachment}"}
            """)
        try folder.write("files/report.pdf", "pdf")
        try folder.write("files/notes.txt", "text")
        try folder.write("files/deeper/x.bin", "x")
        let generated = try CLIRunner.run(["--generate-completion-script", "bash"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        bashScript = try folder.write("moya-cli.bash", generated.stdout)
    }

    /// The environment a user's shell gives the binary: the shipped targets and the test's.
    var environment: [String: String] {
        ["MOYA_TARGETS_PATH": CLIRunner.repositoryRoot.appendingPathComponent("targets").path]
    }

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
            "PATH": binaryFolder + ":/usr/bin:/bin", "HOME": folder.url.path,
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
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "lo"]), ["local"], "./targets is searched at completion time")
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "github", "user"]), ["userProfile", "userRepositories", "userFollowers"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "curl", "local", ""]), ["search", "submit"])

        // Positional values in declared order: a string offers nothing, then the enum's cases, then bool.
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", ""]), [])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", "moya", ""]), ["stars", "forks", "updated"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", "moya", "f"]), ["forks"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", "moya", "stars", ""]), ["true", "false"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "github", "repoIssues", "Moya", "Moya", ""]), ["open", "closed", "all"])

        // Named values: the names not given yet, next to call's own options; then a name's values.
        let named = try bashCompletions(["moya-cli", "call", "local", "search", "moya", "--"])
        XCTAssertTrue(named.contains("--sort") && named.contains("--draft") && named.contains("--stub"), "\(named)")
        XCTAssertFalse(named.contains("--q"), "q is given by position: \(named)")
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", "--sort", "u"]), ["updated"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "search", "--stub", "--draft", ""]), ["true", "false"])
    }

    func testBashCompletesFileValuesWithPaths() throws {
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "submit", "files/"]), ["files/deeper/", "files/notes.txt", "files/report.pdf"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "local", "submit", "files/r"]), ["files/report.pdf"])
    }

    func testTargetsOptionOnTheCommandLineIsHonoured() throws {
        let elsewhere = try TemporaryFolder()
        try elsewhere.write("other.yaml", """
            api: other
            baseURL: http://127.0.0.1:1
            cases:
              ping: {path: /ping}
            """)
        XCTAssertEqual(try bashCompletions(["moya-cli", "call", "--targets", elsewhere.url.appendingPathComponent("other.yaml").path, "ot"]), ["other"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "curl", "--targets", elsewhere.url.path, "other", "p"]), ["ping"])
    }

    func testCompletionEntryPointAsTheShellsCallIt() throws {
        let result = try CLIRunner.run(["---completion", "call", "--", "positional@0", "3", "4", "moya-cli", "call", "github", "user"],
                                       environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n"), ["userProfile", "userRepositories", "userFollowers"])

        let unknownAPI = try CLIRunner.run(["---completion", "call", "--", "positional@0", "3", "0", "moya-cli", "call", "nope", ""],
                                           environment: environment)
        XCTAssertEqual(unknownAPI.status, 0)
        XCTAssertEqual(unknownAPI.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "", "an unknown API offers nothing rather than an error")
    }

    func testZshAndFishScriptsUseTheCustomCompletion() throws {
        for shell in ["zsh", "fish"] {
            let script = try CLIRunner.run(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            XCTAssertTrue(script.stdout.contains("---completion call -- positional@0"), shell)
            XCTAssertTrue(script.stdout.contains("---completion curl -- positional@0"), shell)
        }
    }
}
