import TargetAuth
import XCTest

/// The netrc format as curl reads it (`--netrc`): machines, `default`, quoted tokens, comments,
/// macros skipped, and errors with their line.
final class NetrcFileTests: XCTestCase {
    func testMachinesDefaultQuotesCommentsAndMacros() throws {
        let netrc = try NetrcFile(
            parsing: """
                # a comment line
                machine API.Example.com login ada password "pa ss\\"word"   # trailing comment
                macdef init
                cd /pub
                get file

                machine other.example login bob
                  password b0b account ignored
                default login anon password anonpw

                """)
        XCTAssertEqual(netrc.credential(for: "api.example.com")?.login, "ada")
        XCTAssertEqual(netrc.credential(for: "api.example.com")?.password, "pa ss\"word")
        XCTAssertEqual(netrc.credential(for: "OTHER.example")?.password, "b0b")
        XCTAssertEqual(netrc.credential(for: "third.example")?.login, "anon", "default for any other host")
        XCTAssertNil(netrc.credential(for: "api.example.com", login: "someone-else"))
    }

    func testAMachineWithoutBothIsNoCredentialAndErrorsNameTheirLine() throws {
        XCTAssertNil(try NetrcFile(parsing: "machine h login only\n").credential(for: "h"))
        XCTAssertNil(try NetrcFile(parsing: "machine h password only\n").credential(for: "other"))
        for (text, line, message) in [
            ("login x\n", 1, "'login' before any 'machine' or 'default'"),
            ("machine h\nlogin a\npassword", 3, "'password' has no value after it"),
            ("machine h login \"open", 1, "a quoted token is not closed"),
            ("machine h\nport 21\n", 2, "unexpected token 'port'")
        ] {
            XCTAssertThrowsError(try NetrcFile(parsing: text)) { error in
                XCTAssertEqual(error as? NetrcFile.ParseError, NetrcFile.ParseError(line: line, message: message), text)
            }
        }
    }
}
