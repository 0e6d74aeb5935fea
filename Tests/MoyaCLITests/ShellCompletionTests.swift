import CLITestSupport
import Foundation
import XCTest

/// zsh and fish completion of `call`, `curl` and `check`, each through the real shell's line
/// editor with the generated script (see `InteractiveShell`); bash too where its word splitting matters: API names, cases, named values and
/// enumeration values come from the target files found when TAB is pressed. Skipped, with the
/// reason, when the shell is not installed (`make test` installs both).
final class ShellCompletionTests: XCTestCase {
    var fixture: CompletionFixture!

    override func setUpWithError() throws {
        fixture = try CompletionFixture()
    }

    /// Lines typed and what each offers, the same in both shells.
    var commonExpectations: [(line: String, offered: [String])] {
        let elsewhere = fixture.elsewhere.path
        return [
            ("moya-cli call gi", ["github"]),
            ("moya-cli call lo", ["local"]),
            ("moya-cli call github user", ["userProfile", "userRepositories", "userFollowers"]),
            ("moya-cli curl local ", ["search", "submit"]),
            ("moya-cli call local search moya ", ["stars", "forks", "updated"]),
            ("moya-cli call local search moya f", ["forks"]),
            ("moya-cli call local search moya stars ", ["true", "false"]),
            ("moya-cli call github repoIssues Moya Moya ", ["open", "closed", "all"]),
            ("moya-cli curl github repoIssues Moya Moya --state c", ["closed"]),
            ("moya-cli call local search --sort u", ["updated"]),
            ("moya-cli call local search --stub --draft ", ["true", "false"]),
            ("moya-cli call local submit files/r", ["files/report.pdf"]),
            ("moya-cli call --targets '\(elsewhere)' ot", ["other"]),
            ("moya-cli curl --targets \(elsewhere.replacing(" ", with: "\\ "))/other.yaml other p", ["ping"]),
            ("moya-cli check gi", ["github"]),
            ("moya-cli check github lo", ["local"]),
            ("moya-cli check github --only user", ["userProfile", "userRepositories", "userFollowers"]),
            ("moya-cli check --skip local.s", ["local.search", "local.submit"]),
            ("moya-cli check --targets '\(elsewhere)' --only ot", ["other.ping"]),
            ("moya-cli check --targets '\(elsewhere)' ot", ["other"]),
            ("moya-cli call quirky pick a", ["a:b"]),
            ("moya-cli call nope ", []),
            ("moya-cli imp", ["import"]),
            ("moya-cli import o", ["openapi"]),
            ("moya-cli import openapi --on", ["--only"])
        ]
    }

    /// The named values not given yet are offered next to the subcommand's own options.
    let namedValuesLine = "moya-cli call local search moya --"
    /// An option given once is not offered again; a repeatable one is.
    let givenOptionLine = "moya-cli call local search moya --stub --header 'A: b' --"

    func testZshCompletesAPIsCasesAndValuesFromTheTargetFiles() throws {
        let shell = try InteractiveShell(.zsh)
        // zsh gives matches as they will be inserted: quoted for the command line.
        let quirky: [(line: String, offered: [String])] = [
            ("moya-cli call quirky pick ", ["a:b", "two\\ words", "x\\'y", "\\$\\(touch\\ PWNED\\)"]),
            ("moya-cli call quirky pick two\\ w", ["two\\ words"]),
            ("moya-cli call local submit quirks/", ["quirks/c:d.txt", "quirks/my\\ file.txt"])
        ]
        try assertCompletions(shell, commonExpectations + quirky)
    }

    func testFishCompletesAPIsCasesAndValuesFromTheTargetFiles() throws {
        let shell = try InteractiveShell(.fish)
        // fish gives values; it escapes them itself when inserting.
        let quirky: [(line: String, offered: [String])] = [
            ("moya-cli call quirky pick ", ["a:b", "two words", "x'y", "$(touch PWNED)"]),
            ("moya-cli call quirky pick two\\ w", ["two words"]),
            ("moya-cli call local submit quirks/", ["quirks/c:d.txt", "quirks/my file.txt"])
        ]
        try assertCompletions(shell, commonExpectations + quirky)
    }

    func testBashCompletesValuesWithColonsThroughItsLineEditor() throws {
        let shell = try InteractiveShell(.bash)
        // COMPREPLY replaces the part of the word after its last ':', as bash split it there.
        let colons: [(line: String, offered: [String])] = [
            ("moya-cli call quirky pick a:", ["b"]),
            ("moya-cli call quirky pick a:b", ["b"]),
            ("moya-cli call local submit quirks/c:", ["d.txt"]),
            // After a value with a colon, the value counts as one: call's options come next.
            ("moya-cli call quirky pick a:b --stu", ["--stub"])
        ]
        try assertCompletions(shell, commonExpectations + colons)
    }

    func testPatchesApplyToArgumentParsersScripts() throws {
        let script = try fixture.completionScript("fish")
        XCTAssertTrue(
            script.contains("function __moya-cli_parse_tokens_once"),
            "the patch no longer applies to ArgumentParser's fish script (CompletionScriptPatches)")
        XCTAssertFalse(script.contains("non_repeating_flags_or_options_absent"))
        XCTAssertTrue(
            try fixture.completionScript("bash").contains("__moya-cli_join_words_split_at_colons"),
            "the patch no longer applies to ArgumentParser's bash script (CompletionScriptPatches)")
    }

    func assertCompletions(
        _ shell: InteractiveShell, _ expectations: [(line: String, offered: [String])],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let lines = expectations.map(\.line) + [namedValuesLine, givenOptionLine]
        let offered = try shell.completions(
            lines, completionScript: try fixture.completionScript(shell.kind.rawValue),
            in: fixture.folder, environment: fixture.environment, file: file, line: line)
        // A test that compares nothing must fail: more groups recorded than lines typed (or
        // fewer) means the lines and the groups no longer pair up.
        guard offered.count == lines.count else {
            return XCTFail(
                "\(shell.kind): \(lines.count) lines typed, \(offered.count) result groups recorded: \(offered)",
                file: file, line: line)
        }
        XCTAssertTrue(
            expectations.contains { !$0.offered.isEmpty }, "\(shell.kind): no expectation offers anything", file: file,
            line: line)
        var matchedNonEmpty = 0
        for (expectation, actual) in zip(expectations, offered) {
            XCTAssertEqual(actual, expectation.offered, "\(shell.kind): \(expectation.line)", file: file, line: line)
            if actual == expectation.offered && !actual.isEmpty { matchedNonEmpty += 1 }
        }
        XCTAssertGreaterThan(
            matchedNonEmpty, 0, "\(shell.kind): no completion offered what was expected", file: file, line: line)
        let named = offered[expectations.count]
        XCTAssertTrue(
            named.contains("--sort") && named.contains("--draft") && named.contains("--stub"),
            "\(shell.kind): \(named)",
            file: file, line: line)
        XCTAssertFalse(named.contains("--q"), "\(shell.kind): q is given by position: \(named)", file: file, line: line)
        let afterStub = offered[expectations.count + 1]
        XCTAssertFalse(
            afterStub.contains("--stub"), "\(shell.kind): --stub is given: \(afterStub)", file: file, line: line)
        XCTAssertTrue(
            afterStub.contains("--header") && afterStub.contains("--delay") && afterStub.contains("--sort"),
            "\(shell.kind): \(afterStub)", file: file, line: line)
        XCTAssertFalse(
            fixture.commandSubstitutionRan, "\(shell.kind) ran a command substitution from a target file", file: file,
            line: line)
    }
}
