import TargetModel
import TargetSpec
import XCTest

/// The text edit that appends a case: byte for byte, every other byte of the file kept.
final class CaseAppenderTests: XCTestCase {
    private let members = [YAMLText.Entry("path", .string("/new"))]

    private func appended(_ text: String, name: String = "added", file: StaticString = #filePath, line: UInt = #line)
        throws -> String
    {
        let result = try CaseAppender.appending(name, members: members, to: Array(text.utf8), file: "t.yaml")
        let edited = String(decoding: result.bytes, as: UTF8.self)
        let loaded = TargetFileLoader.load(text: edited, file: "t.yaml")
        XCTAssertFalse(loaded.hasErrors, loaded.renderedDiagnostics(), file: file, line: line)
        XCTAssertEqual(loaded.api?.cases.last?.name, name, file: file, line: line)
        // Split on LF bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        let lines = result.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let named = lines.indices.contains(result.line - 1) ? lines[result.line - 1].drop { $0 == " " } : ""
        XCTAssertTrue(
            named.hasPrefix(name + ":") || named == "? " + name, "line \(result.line) names the case", file: file,
            line: line)
        return edited
    }

    func testCommentsAnchorsAliasesAndFlowMapsElsewhereAreKept() throws {
        let original = """
            # httpbin, by hand
            api: hb   # the name
            baseURL: https://httpbin.org
            headers: &common {Accept: application/json, X-Trace: "on"}   # flow map, anchored
            cases:
              # the first case
              get:
                path: /get    # trailing comment
                headers: *common
              post:
                method: POST
                path: /post
                task: {json: {a: [1, 2, {b: c}]}}   # flow map in a case
            # a comment after the last case

            """
        XCTAssertEqual(
            try appended(original),
            """
            # httpbin, by hand
            api: hb   # the name
            baseURL: https://httpbin.org
            headers: &common {Accept: application/json, X-Trace: "on"}   # flow map, anchored
            cases:
              # the first case
              get:
                path: /get    # trailing comment
                headers: *common
              post:
                method: POST
                path: /post
                task: {json: {a: [1, 2, {b: c}]}}   # flow map in a case
              added:
                path: /new
            # a comment after the last case

            """)
    }

    func testCasesInTheMiddleFourSpaceIndentation() throws {
        let original = """
            baseURL: https://example.com
            cases:
                one:
                    path: /one


            validation: successCodes   # after the cases
            timeout: 5

            """
        XCTAssertEqual(
            try appended(original),
            """
            baseURL: https://example.com
            cases:
                one:
                    path: /one
                added:
                    path: /new


            validation: successCodes   # after the cases
            timeout: 5

            """)
    }

    func testCRLFNoFinalNewlineAndDocumentMarkers() throws {
        let crlf = "baseURL: https://example.com\r\ncases:\r\n  one:\r\n    path: /one\r\n"
        XCTAssertEqual(try appended(crlf), crlf + "  added:\r\n    path: /new\r\n")
        let unterminated = "baseURL: https://example.com\ncases:\n  one: {path: /one}"
        XCTAssertEqual(try appended(unterminated), unterminated + "\n  added:\n    path: /new")
        let documents = "%YAML 1.1\n---\nbaseURL: https://example.com\ncases:\n  one:\n    path: /one\n...\n# end\n"
        XCTAssertEqual(
            try appended(documents),
            "%YAML 1.1\n---\nbaseURL: https://example.com\ncases:\n  one:\n    path: /one\n  added:\n    path: /new\n...\n# end\n"
        )
    }

    func testBlockScalarsAndCommentLikeTextInsideThemStay() throws {
        let original = """
            baseURL: https://example.com
            cases:
              one:
                path: /one
                sample: |+
                  # not a comment: text
                  last line

              # a real comment

            """
        let edited = try appended(original)
        XCTAssertEqual(
            edited,
            """
            baseURL: https://example.com
            cases:
              one:
                path: /one
                sample: |+
                  # not a comment: text
                  last line

              added:
                path: /new
              # a real comment

            """)
        let api = TargetFileLoader.load(text: edited, file: "t.yaml").api
        let before = TargetFileLoader.load(text: original, file: "t.yaml").api
        XCTAssertEqual(api?.cases.first, before?.cases.first, "the block scalar's text is unchanged")
    }

    func testByteOrderMarkAndMultibyteTextBeforeTheEnd() throws {
        let original = "\u{FEFF}baseURL: https://example.com\ncases:\n  one:\n    path: /één   # ☃\n"
        XCTAssertEqual(try appended(original), original + "  added:\n    path: /new\n")
    }

    func testRefusals() throws {
        let file = "baseURL: https://example.com\ncases:\n  one:\n    path: /one\n"
        XCTAssertThrowsError(try CaseAppender.appending("one", members: members, to: Array(file.utf8), file: "t.yaml"))
        { error in
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "case 'one' exists in t.yaml (line 3); pick another name or remove it first")
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 64)
        }
        for name in ["1st", "a-b", "", "a b", "x\ny", "a\u{0}", "é", "-x", "a:b", "#a", "&a", "*a"] {
            XCTAssertThrowsError(
                try CaseAppender.appending(name, members: members, to: Array(file.utf8), file: "t.yaml"), name
            ) { error in
                XCTAssertEqual((error as? TargetFileEditError)?.kind, .usage)
                XCTAssertTrue(
                    (error as? TargetFileEditError)?.message.hasSuffix(
                        "is not a valid case name: use letters, digits and _, not starting with a digit") == true)
            }
        }
        let flow = "baseURL: https://example.com\ncases: {one: {path: /one}}\n"
        XCTAssertThrowsError(try CaseAppender.appending("two", members: members, to: Array(flow.utf8), file: "t.yaml"))
        { error in
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "cannot add a case to t.yaml: 'cases' (line 2) is written in flow style ({...}); write it as a block map, one case per line, to add cases"
            )
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 65)
        }
        let flowRoot = "{baseURL: https://example.com, cases: {one: {path: /one}}}\n"
        XCTAssertThrowsError(
            try CaseAppender.appending("two", members: members, to: Array(flowRoot.utf8), file: "t.yaml")
        ) { error in
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "cannot add a case to t.yaml: its top level is written in flow style ({...}); write it as a block map to add cases"
            )
        }
    }

    func testAnAliasAsTheLastCaseAndAHugeName() throws {
        let original =
            "baseURL: https://example.com\ncases:\n  one: &shared\n    path: /one\n  two: *shared   # the same\n"
        XCTAssertEqual(try appended(original), original + "  added:\n    path: /new\n")
        let name = String(repeating: "n", count: 2_000)
        let long = try appended("baseURL: https://example.com\ncases:\n  one:\n    path: /one\n", name: name)
        XCTAssertEqual(
            long, "baseURL: https://example.com\ncases:\n  one:\n    path: /one\n  ? \(name)\n  :\n    path: /new\n")
    }
}
