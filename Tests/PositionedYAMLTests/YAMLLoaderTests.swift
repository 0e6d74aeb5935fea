import Foundation
import PositionedYAML
import TargetSpec
import XCTest

/// The tree and marks of well-formed files, and the structural errors: syntax, keys, documents.
final class YAMLLoaderTests: XCTestCase {
    func testLoadsATargetFileWithEveryMark() {
        let text = """
            api: github
            baseURL: https://api.github.com
            cases:
              zen:
                path: /zen
                sample: "Half measures"
              list: [a, 'b']

            """
        let expected = mapping(
            [
                (scalar("api", 1, 1), .scalar(scalar("github", 1, 6))),
                (scalar("baseURL", 2, 1), .scalar(scalar("https://api.github.com", 2, 10))),
                (
                    scalar("cases", 3, 1),
                    mapping(
                        [
                            (
                                scalar("zen", 4, 3),
                                mapping(
                                    [
                                        (scalar("path", 5, 5), .scalar(scalar("/zen", 5, 11))),
                                        (scalar("sample", 6, 5), .scalar(scalar("Half measures", 6, 13, plain: false)))
                                    ], at(5, 5))
                            ),
                            (
                                scalar("list", 7, 3),
                                .sequence(
                                    [
                                        .scalar(scalar("a", 7, 10)),
                                        .scalar(scalar("b", 7, 13, plain: false))
                                    ], at(7, 9))
                            )
                        ], at(4, 3))
                )
            ], at(1, 1))
        XCTAssertEqual(loadNode(text), expected)
    }

    func testLoadsFromDataAsFromBytes() throws {
        let text = "a: [1, 'two']\n"
        XCTAssertEqual(
            try YAMLLoader.load(Data(text.utf8), file: "t.yaml"), try YAMLLoader.load(Array(text.utf8), file: "t.yaml"))
    }

    func testMappingKeepsDocumentOrder() throws {
        let node = try XCTUnwrap(loadNode("z: 1\na: 2\nm: 3\n"))
        guard case .mapping(let pairs, _) = node else { return XCTFail("expected a mapping, got \(node)") }
        XCTAssertEqual(pairs.map(\.key.text), ["z", "a", "m"])
    }

    func testCRLFAndLoneCRAreOneLineBreakEach() {
        let expected = mapping(
            [
                (scalar("a", 1, 1), .scalar(scalar("1", 1, 4))),
                (scalar("b", 2, 1), .scalar(scalar("2", 2, 4))),
                (scalar("c", 3, 1), .scalar(scalar("3", 3, 4)))
            ], at(1, 1))
        XCTAssertEqual(loadNode("a: 1\r\nb: 2\rc: 3\r\n"), expected)
    }

    func testExplicitTagIsKeptAndTheMarkIsTheTags() {
        let expected = mapping(
            [
                (scalar("s", 1, 1), .scalar(scalar("5", 1, 4, tag: "tag:yaml.org,2002:str")))
            ], at(1, 1))
        XCTAssertEqual(loadNode("s: !!str 5\n"), expected)
    }

    func testSyntaxErrorShowsLibyamlsProblemAtItsMark() {
        XCTAssertEqual(
            renderedLoadError("a: b: c\n"),
            """
            t.yaml:1:5: error: invalid YAML: mapping values are not allowed in this context
                a: b: c
                    ^

            """)
    }

    func testSyntaxErrorNamesTheContextAndWhereItStarted() {
        XCTAssertEqual(
            renderedLoadError("a: [1, 2\nb: 3\n"),
            """
            t.yaml:2:2: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 1:4)
                b: 3
                 ^

            """)
    }

    func testUnterminatedQuoteIsReportedAtTheEndOfTheFile() {
        // libyaml reports the end of the stream: line 2, column 1, an empty last line.
        XCTAssertEqual(
            renderedLoadError("key: \"unterminated\n"),
            "t.yaml:2:1: error: invalid YAML: found unexpected end of stream (while scanning a quoted scalar at 1:6)\n"
                + "    \n"
                + "    ^\n")
    }

    func testTabIndentationGetsAHint() {
        XCTAssertEqual(
            renderedLoadError("a:\n\tb: 1\n"),
            """
            t.yaml:2:1: error: invalid YAML: found character that cannot start any token (while scanning for the next token); \
            tabs are not allowed in YAML indentation; indent with spaces
                \tb: 1
                ^

            """)
    }

    func testDuplicateKeyIsReportedAtTheSecondWithTheFirstsMark() {
        XCTAssertEqual(
            renderedLoadError("a: 1\nb:\n  c: 1\n  c: 2\n"),
            """
            t.yaml:4:3: error: duplicate key 'c' (first defined at 3:3)
                  c: 2
                  ^

            """)
    }

    func testEveryDuplicateInALargeMappingIsReported() {
        // 20 keys: past the linear scan, into the dictionary index.
        let keys = (0..<20).map { "k\($0): \($0)\n" }.joined()
        XCTAssertEqual(
            renderedLoadError(keys + "k5: again\nk19: again\n"),
            """
            t.yaml:21:1: error: duplicate key 'k5' (first defined at 6:1)
                k5: again
                ^
            t.yaml:22:1: error: duplicate key 'k19' (first defined at 20:1)
                k19: again
                ^

            """)
    }

    func testDuplicatesInSmallMappingsAreFoundToo() {
        XCTAssertEqual(
            renderedLoadError("m: {x: 1, y: 2, x: 3}\n"),
            """
            t.yaml:1:17: error: duplicate key 'x' (first defined at 1:5)
                m: {x: 1, y: 2, x: 3}
                                ^

            """)
    }

    func testSequenceAndMappingKeysAreRefused() {
        XCTAssertEqual(
            renderedLoadError("[a]: 1\n{x: 1}: 2\n? - b\n: 3\n"),
            """
            t.yaml:1:1: error: a mapping key must be a scalar, not a sequence
                [a]: 1
                ^
            t.yaml:2:1: error: a mapping key must be a scalar, not a mapping
                {x: 1}: 2
                ^
            t.yaml:3:3: error: a mapping key must be a scalar, not a sequence
                ? - b
                  ^

            """)
    }

    func testSecondDocumentIsRefused() {
        XCTAssertEqual(
            renderedLoadError("a: 1\n---\nb: 2\n"),
            """
            t.yaml:2:1: error: a target file holds one document; remove this '---' and what follows, or move it to its own file
                ---
                ^

            """)
    }

    func testOneExplicitDocumentIsFine() {
        let expected = mapping([(scalar("a", 2, 1), .scalar(scalar("1", 2, 4)))], at(2, 1))
        XCTAssertEqual(loadNode("---\na: 1\n...\n"), expected)
    }

    func testEmptyFilesAreRefused() {
        for text in ["", "\n\n  \n", "# only a comment\n", "---\n", "--- \n...\n", "\u{FEFF}"] {
            XCTAssertEqual(
                renderedLoadError(text), "t.yaml: error: empty target file\n", "for \(text.debugDescription)")
        }
    }

    func testAllProblemsThatDoNotStopLoadingAreReportedTogetherSorted() {
        XCTAssertEqual(
            renderedLoadError("b: *missing\na: 1\na: 2\n"),
            """
            t.yaml:1:4: error: unknown alias '*missing'; no anchor '&missing' is defined before it
                b: *missing
                   ^
            t.yaml:3:1: error: duplicate key 'a' (first defined at 2:1)
                a: 2
                ^

            """)
    }

    func testErrorCarriesStructuredDiagnostics() {
        XCTAssertThrowsError(try YAMLLoader.load(Array("a: 1\na: 2\n".utf8), file: "dir/t.yaml")) { error in
            XCTAssertEqual(
                (error as? YAMLLoadError)?.diagnostics,
                [
                    Diagnostic(
                        .error, file: "dir/t.yaml", mark: at(2, 1), message: "duplicate key 'a' (first defined at 1:1)")
                ])
        }
    }
}
