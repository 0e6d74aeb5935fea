import TextSafety
import XCTest

/// Issue 27, item 5: the shell rules, each with the hostile text it must carry through a shell.
final class ShellQuotingTests: XCTestCase {
    func testSingleQuotedCarriesQuotesExpansionsAndControlsLiterally() {
        XCTAssertEqual(ShellQuoting.singleQuoted(""), "''")
        XCTAssertEqual(ShellQuoting.singleQuoted("it's"), #"'it'\''s'"#)
        XCTAssertEqual(ShellQuoting.singleQuoted("''"), #"''\'''\'''"#)
        XCTAssertEqual(ShellQuoting.singleQuoted("$(rm -rf ~) `id` ; \\ \" !"), "'$(rm -rf ~) `id` ; \\ \" !'")
        XCTAssertEqual(
            ShellQuoting.singleQuoted("a\r\nb\u{0}c\u{1B}[2J\u{85}\u{202E}"), "'a\r\nb\u{0}c\u{1B}[2J\u{85}\u{202E}'")
        let long = String(repeating: "a'b", count: 10_000)
        XCTAssertEqual(ShellQuoting.singleQuoted(long), "'" + String(repeating: #"a'\''b"#, count: 10_000) + "'")
    }

    func testQuotedUnlessPlainASCIIQuotesAnythingOutsideItsSet() {
        XCTAssertEqual(
            ShellQuoting.quotedUnlessPlainASCII("--token=a,b@c+d%e/f.g:h_i-j"), "--token=a,b@c+d%e/f.g:h_i-j")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlainASCII(""), "''")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlainASCII("café"), "'café'")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlainASCII("a b"), "'a b'")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlainASCII("x'$y"), #"'x'\''$y'"#)
        XCTAssertEqual(ShellQuoting.quotedUnlessPlainASCII("a\nb"), "'a\nb'")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlainASCII("٣"), "'٣'", "only ASCII digits are plain")
    }

    func testQuotedUnlessPlainKeepsLettersOfAnyScriptAndQuotesEqualsCommaPlusPercent() {
        XCTAssertEqual(ShellQuoting.quotedUnlessPlain("café/日本:1.2@x_y-z"), "café/日本:1.2@x_y-z")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlain(""), "''")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlain("a=b"), "'a=b'")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlain("a,b"), "'a,b'")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlain("50%"), "'50%'")
        XCTAssertEqual(ShellQuoting.quotedUnlessPlain("it's\t\u{1B}"), "'it'\\''s\t\u{1B}'")
    }

    func testBackslashEscapedGivesEachOddCharacterItsBackslash() {
        XCTAssertEqual(ShellQuoting.backslashEscaped("plain_@%+=:,./-1é"), "plain_@%+=:,./-1é")
        XCTAssertEqual(ShellQuoting.backslashEscaped("$(id)"), #"\$\(id\)"#)
        XCTAssertEqual(ShellQuoting.backslashEscaped("x'y\"z w"), #"x\'y\"z\ w"#)
        XCTAssertEqual(ShellQuoting.backslashEscaped("a\nb"), "a\\\nb")
        XCTAssertEqual(ShellQuoting.backslashEscaped("a\r\nb"), "a\\\r\nb", "CR LF is one character: one backslash")
        XCTAssertEqual(ShellQuoting.backslashEscaped("\u{0}\u{202E}"), "\\\u{0}\\\u{202E}")
        XCTAssertEqual(ShellQuoting.backslashEscaped(""), "")
    }

    func testZshDescribeEscapedEscapesColonAndBackslashOnly() {
        XCTAssertEqual(ShellQuoting.zshDescribeEscaped(#"a:b\c"#), #"a\:b\\c"#)
        XCTAssertEqual(ShellQuoting.zshDescribeEscaped("x'$ y\n"), "x'$ y\n")
    }
}
