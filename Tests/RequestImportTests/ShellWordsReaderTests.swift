import RequestImport
import XCTest

/// The shell quoting browsers' "Copy as cURL" writes, read back into words; nothing expanded.
final class ShellWordsReaderTests: XCTestCase {
    private func words(_ text: String) throws -> [[String]] {
        try ShellWordsReader.commands(in: Array(text.utf8)).map { $0.words.map(\.text) }
    }

    func testQuotingStylesBashAndPOSIX() throws {
        XCTAssertEqual(try words(#"curl 'a b' "c \"d\" \$e \\ \x" f\ g"#), [["curl", "a b", #"c "d" $e \ \x"#, "f g"]])
        XCTAssertEqual(try words(#"curl 'it'"'"'s'"#), [["curl", "it's"]])
        XCTAssertEqual(try words(#"curl $'a\tb\n\x41\u20ac\'q\\'"#), [["curl", "a\tb\nA€'q\\"]])
        XCTAssertEqual(try words("curl $'\\101\\cA'"), [["curl", "A\u{01}"]])
    }

    func testContinuationsAndSeparators() throws {
        XCTAssertEqual(
            try words("curl 'u' \\\n  -H 'a: b' \\\r\n  -d x\ncurl v; curl w # comment\n\n"),
            [["curl", "u", "-H", "a: b", "-d", "x"], ["curl", "v"], ["curl", "w"]])
        XCTAssertEqual(try words("curl 'multi\nline'"), [["curl", "multi\nline"]])
    }

    func testExpansionsStayTextAndAreMarked() throws {
        let commands = try ShellWordsReader.commands(in: Array("curl $(rm -rf ~) `id` \"$HOME\" '$(x)'".utf8))
        XCTAssertEqual(commands[0].words.map(\.text), ["curl", "$(rm -rf ~)", "`id`", "$HOME", "$(x)"])
        XCTAssertEqual(commands[0].words.map(\.hasExpansion), [false, true, true, true, false])
    }

    func testHostileTextIsRefusedWithItsPlace() {
        for (text, place, fragment) in [
            ("curl 'open", TextPlace(line: 1, column: 6), "never closed"),
            ("curl x\ncurl \"open", TextPlace(line: 2, column: 6), "never closed"),
            ("curl $'open", TextPlace(line: 1, column: 6), "never closed"),
            ("curl a | sh", TextPlace(line: 1, column: 8), "shell operator"),
            ("curl a > out", TextPlace(line: 1, column: 8), "shell operator"),
            ("curl a\u{0}b", TextPlace(line: 1, column: 7), "NUL"),
            ("curl $'\\0'", nil, "NUL")
        ] as [(String, TextPlace?, String)] {
            XCTAssertThrowsError(try ShellWordsReader.commands(in: Array(text.utf8)), text) { error in
                let failure = error as? RequestImportError
                if let place { XCTAssertEqual(failure?.place, place, text) }
                XCTAssertTrue(failure?.message.contains(fragment) == true, "\(text): \(String(describing: failure))")
            }
        }
    }
}
