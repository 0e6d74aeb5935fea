import Foundation
import PositionedYAML
import TargetSpec
import XCTest

/// Files that are not text, not UTF-8, too big, too deep, or built to explode: each is refused
/// with a message that says what and where, and none is expanded or scanned twice.
final class YAMLHostileInputTests: XCTestCase {
    // MARK: Encoding and bytes

    func testUTF16WithByteOrderMarkIsRefused() {
        let utf16LE: [UInt8] = [0xFF, 0xFE] + "a: 1\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        XCTAssertEqual(
            renderedLoadError(bytes: utf16LE),
            "t.yaml: error: file is encoded in UTF-16; target files must be UTF-8 (save it as UTF-8)\n")
    }

    func testUTF16WithoutByteOrderMarkIsRefused() {
        let utf16BE: [UInt8] = "a: 1\n".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        XCTAssertEqual(
            renderedLoadError(bytes: utf16BE),
            "t.yaml: error: file is encoded in UTF-16; target files must be UTF-8 (save it as UTF-8)\n")
    }

    func testUTF32IsRefused() {
        XCTAssertEqual(
            renderedLoadError(bytes: [0xFF, 0xFE, 0, 0, 0x61, 0, 0, 0]),
            "t.yaml: error: file is encoded in UTF-32; target files must be UTF-8 (save it as UTF-8)\n")
    }

    func testLatin1IsRefusedAtItsFirstNonUTF8Byte() {
        // "café" in Latin-1: é is the single byte 0xE9, the 7th character of line 2.
        let bytes = Array("a: 1\nb: caf".utf8) + [0xE9, 0x0A]
        XCTAssertEqual(
            renderedLoadError(bytes: bytes),
            "t.yaml: error: file is not valid UTF-8 (byte 0xE9 at 2:7); save it as UTF-8\n")
    }

    func testEveryKindOfIllFormedUTF8IsRefused() {
        let cases: [(bytes: [UInt8], expected: String)] = [
            ([0xC0, 0xAF], "byte 0xC0 at 1:4"),  // overlong '/'
            ([0xED, 0xA0, 0x80], "byte 0xED at 1:4"),  // a UTF-16 surrogate
            ([0x80], "byte 0x80 at 1:4"),  // a continuation byte with no lead
            ([0xE2, 0x82], "byte 0xE2 at 1:4"),  // truncated by the end of the file
            ([0xE2, 0x82, 0x41], "byte 0xE2 at 1:4"),  // truncated by an ASCII byte
            ([0xF5, 0x80, 0x80, 0x80], "byte 0xF5 at 1:4")  // beyond U+10FFFF
        ]
        for (bytes, expected) in cases {
            XCTAssertEqual(
                renderedLoadError(bytes: Array("a: ".utf8) + bytes),
                "t.yaml: error: file is not valid UTF-8 (\(expected)); save it as UTF-8\n")
        }
    }

    func testInvalidByteColumnCountsCharactersAndLibyamlsLineBreaks() {
        // é and ü are 2 bytes each but 1 column; NEL (U+0085) ends a line for libyaml, so for us too.
        XCTAssertEqual(
            renderedLoadError(bytes: Array("é: ü ".utf8) + [0xFF]),
            "t.yaml: error: file is not valid UTF-8 (byte 0xFF at 1:6); save it as UTF-8\n")
        XCTAssertEqual(
            renderedLoadError(bytes: Array("a: 1\u{85}b: ".utf8) + [0xFF]),
            "t.yaml: error: file is not valid UTF-8 (byte 0xFF at 2:4); save it as UTF-8\n")
    }

    func testNULIsBinaryData() {
        XCTAssertEqual(
            renderedLoadError("a: 1\nbb: x\u{0}y\n"), "t.yaml: error: file contains binary data (byte 0x00 at 2:6)\n")
    }

    /// Issue 16: a large file is parsed on a thread of its own while the bytes are screened; a
    /// forbidden byte anywhere, even after a syntax error libyaml would report first, is still
    /// the one error, and the parse thread is stopped (the test would hang or leak otherwise).
    func testABinaryByteInALargeFileIsTheErrorWhileItIsParsedAhead() {
        let entries = (0..<5_000).map { "key\($0): value \($0)\n" }.joined()
        XCTAssertGreaterThan(entries.utf8.count, LibYAMLParser.prefetchThreshold)
        for (prefix, suffix) in [("", "bad: x\u{1B}y\n"), (entries, "bad: x\u{1B}y\n"), ("a: [\n" + entries, "\u{0}")] {
            let text = prefix + entries + suffix
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = lines.firstIndex { $0.contains("\u{1B}") || $0.contains("\u{0}") }! + 1
            let column = lines[line - 1].firstIndex { $0 == "\u{1B}" || $0 == "\u{0}" }.map {
                lines[line - 1].distance(from: lines[line - 1].startIndex, to: $0) + 1
            }!
            let byte = text.contains("\u{1B}") ? "0x1B" : "0x00"
            XCTAssertEqual(
                renderedLoadError(text).components(separatedBy: "\n").first,
                "t.yaml: error: file contains binary data (byte \(byte) at \(line):\(column))")
        }
    }

    func testOtherControlBytesAreBinaryDataButTabCRAndLFAreNot() {
        XCTAssertEqual(
            renderedLoadError("é: \u{1B}[31m\n"), "t.yaml: error: file contains binary data (byte 0x1B at 1:4)\n")
        XCTAssertEqual(
            renderedLoadError("a: \u{7F}\n"), "t.yaml: error: file contains binary data (byte 0x7F at 1:4)\n")
        XCTAssertEqual(
            renderedLoadError("a: \u{80}\n"), "t.yaml: error: file contains binary data (character U+0080 at 1:4)\n")
        XCTAssertEqual(
            renderedLoadError("a: \u{FFFE}\n"), "t.yaml: error: file contains binary data (character U+FFFE at 1:4)\n")
        XCTAssertNotNil(loadNode("a: \"x\ty\"\r\nb: 2\n"))
    }

    func testByteOrderMarkIsSkippedWithoutShiftingColumns() {
        let expected = mapping([(scalar("a", 1, 1), .scalar(scalar("1", 1, 4)))], at(1, 1))
        XCTAssertEqual(loadNode("\u{FEFF}a: 1\n"), expected)
        XCTAssertEqual(
            renderedLoadError("\u{FEFF}m: {x: 1, x: 2}\n"),
            """
            t.yaml:1:11: error: duplicate key 'x' (first defined at 1:5)
                m: {x: 1, x: 2}
                          ^

            """)
    }

    // MARK: Columns

    func testColumnsCountUnicodeScalarsNotBytes() {
        XCTAssertEqual(
            renderedLoadError("ü: {é: 1, ö: 2, é: 3}\n"),
            """
            t.yaml:1:17: error: duplicate key 'é' (first defined at 1:5)
                ü: {é: 1, ö: 2, é: 3}
                                ^

            """)
        XCTAssertEqual(
            renderedLoadError("🙂: {a: 1, a: 2}\n"),
            """
            t.yaml:1:11: error: duplicate key 'a' (first defined at 1:5)
                🙂: {a: 1, a: 2}
                          ^

            """)
    }

    func testADecomposedAccentIsTwoColumnsAsInLibyaml() {
        // "e" + COMBINING ACUTE ACCENT: one Character, two scalars, two libyaml columns.
        XCTAssertEqual(
            renderedLoadError("e\u{301}: {a: 1, a: 2}\n"),
            "t.yaml:1:12: error: duplicate key 'a' (first defined at 1:6)\n"
                + "    e\u{301}: {a: 1, a: 2}\n"
                + "               ^\n")
    }

    func testTabsCountOneColumnAndStayTabsUnderTheCaret() {
        XCTAssertEqual(
            renderedLoadError("m: {x: 1,\ty: 2,\tx: 3}\n"),
            "t.yaml:1:17: error: duplicate key 'x' (first defined at 1:5)\n"
                + "    m: {x: 1,\ty: 2,\tx: 3}\n"
                + "             \t     \t^\n")
    }

    func testNELLineSeparatorsAreLineBreaksAsInLibyaml() {
        let expected = mapping(
            [
                (scalar("a", 1, 1), .scalar(scalar("1", 1, 4))),
                (scalar("b", 2, 1), .scalar(scalar("2", 2, 4))),
                (scalar("c", 3, 1), .scalar(scalar("3", 3, 4)))
            ], at(1, 1))
        XCTAssertEqual(loadNode("a: 1\u{85}b: 2\u{2028}c: 3\n"), expected)
    }

    // MARK: Size limits

    func testFileOverTheSizeLimitIsRefusedBeforeParsing() {
        XCTAssertEqual(
            renderedLoadError("a: 12345678\n", limits: YAMLLimits(maximumFileSize: 10)),
            "t.yaml: error: file is too large (12 bytes; the limit is 10 bytes)\n")
        let oversized = [UInt8](repeating: UInt8(ascii: "#"), count: YAMLLimits.default.maximumFileSize + 1)
        XCTAssertEqual(
            renderedLoadError(bytes: oversized),
            "t.yaml: error: file is too large (16777217 bytes; the limit is 16 MiB)\n")
    }

    func testScalarOverTheLengthLimitIsRefusedAtItsStart() {
        XCTAssertEqual(
            renderedLoadError("a: 12345678901\n", limits: YAMLLimits(maximumScalarLength: 10)),
            """
            t.yaml:1:4: error: scalar is too long (11 bytes; the limit is 10 bytes)
                a: 12345678901
                   ^

            """)
        let long = "a: " + String(repeating: "x", count: (1 << 20) + 1) + "\n"
        XCTAssertThrowsError(try YAMLLoader.load(Array(long.utf8), file: "t.yaml")) { error in
            XCTAssertEqual(
                (error as? YAMLLoadError)?.diagnostics,
                [
                    Diagnostic(
                        .error, file: "t.yaml", mark: at(1, 4),
                        message: "scalar is too long (1048577 bytes; the limit is 1 MiB)")
                ])
        }
    }

    // MARK: Node count

    func testTheNodeOverTheLimitIsRefusedWhereItIs() {
        // The root list, its two maps, their keys and values: the eighth node, `x` on line 2, is one too many.
        XCTAssertEqual(
            renderedLoadError("- {a: 1, b: 2}\n- {x: 3}\n", limits: YAMLLimits(maximumNodes: 7)),
            """
            t.yaml:2:4: error: the file holds more than 7 YAML nodes; the file is refused (a target file needs far fewer)
                - {x: 3}
                   ^

            """)
        XCTAssertNotNil(loadNode("- {a: 1, b: 2}\n- {x: 3}\n", limits: YAMLLimits(maximumNodes: 9)))
    }

    func testAFlatListOfAMillionItemsIsRefusedAtTheDefaultLimit() {
        // The list itself is a node, so its millionth item (column 2,000,000) is one too many.
        let tooMany = "[" + String(repeating: "0,", count: 999_999) + "0]"
        XCTAssertThrowsError(try YAMLLoader.load(Array(tooMany.utf8), file: "t.yaml")) { error in
            XCTAssertEqual(
                (error as? YAMLLoadError)?.diagnostics,
                [
                    Diagnostic(
                        .error, file: "t.yaml", mark: at(1, 2_000_000),
                        message:
                            "the file holds more than 1000000 YAML nodes; the file is refused (a target file needs far fewer)"
                    )
                ])
        }
    }

    // MARK: Nesting

    func testSixtyFourLevelsLoadAndSixtyFiveDoNot() {
        XCTAssertNotNil(loadNode(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)))
        let line = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        XCTAssertEqual(
            renderedLoadError(line + "\n"),
            "t.yaml:1:65: error: nesting is deeper than 64 levels\n"
                + "    " + line + "\n"
                + "    " + String(repeating: " ", count: 64) + "^\n")
    }

    func testBlockNestingCountsEveryCollection() {
        XCTAssertEqual(
            renderedLoadError("a:\n  b:\n    c:\n      d: 1\n", limits: YAMLLimits(maximumDepth: 3)),
            """
            t.yaml:4:7: error: nesting is deeper than 3 levels
                      d: 1
                      ^

            """)
    }

    func testAnAliasCountsTheDepthOfWhatItBringsIn() {
        XCTAssertEqual(
            renderedLoadError("x: &x [[1]]\ny: [[*x]]\n", limits: YAMLLimits(maximumDepth: 3)),
            """
            t.yaml:2:6: error: nesting is deeper than 3 levels
                y: [[*x]]
                     ^

            """)
    }

    func testAHundredThousandOpenBracketsStopAtTheLimit() {
        let bytes = Array(String(repeating: "[", count: 100_000).utf8)
        XCTAssertThrowsError(try YAMLLoader.load(bytes, file: "t.yaml")) { error in
            XCTAssertEqual(
                (error as? YAMLLoadError)?.diagnostics,
                [
                    Diagnostic(.error, file: "t.yaml", mark: at(1, 65), message: "nesting is deeper than 64 levels")
                ])
        }
    }

    // MARK: Aliases

    func testAliasResolvesToTheAnchoredNodeItself() throws {
        let node = try XCTUnwrap(loadNode("base: &b {x: 1}\nuse: *b\n"))
        guard case .mapping(let pairs, _) = node, pairs.count == 2 else { return XCTFail("unexpected \(node)") }
        // The anchored node, marks and all (libyaml starts an anchored node at its '&').
        let anchored = mapping([(scalar("x", 1, 11), .scalar(scalar("1", 1, 14)))], at(1, 7))
        XCTAssertEqual(pairs[0].value, anchored)
        XCTAssertEqual(pairs[1].value, anchored)
    }

    func testARedefinedAnchorNamesItsLatestNode() {
        let expected = mapping(
            [
                (scalar("a", 1, 1), .scalar(scalar("1", 1, 4))),
                (scalar("b", 2, 1), .scalar(scalar("2", 2, 4))),
                (scalar("c", 3, 1), .scalar(scalar("2", 2, 4)))
            ], at(1, 1))
        XCTAssertEqual(loadNode("a: &x 1\nb: &x 2\nc: *x\n"), expected)
    }

    func testUnknownAliasIsAnError() {
        XCTAssertEqual(
            renderedLoadError("a: *nope\n"),
            """
            t.yaml:1:4: error: unknown alias '*nope'; no anchor '&nope' is defined before it
                a: *nope
                   ^

            """)
    }

    func testAnAliasInsideItsOwnAnchorIsAnError() {
        XCTAssertEqual(
            renderedLoadError("a: &x [1, *x]\n"),
            """
            t.yaml:1:11: error: alias '*x' is inside the node anchored as '&x'; a node cannot contain itself
                a: &x [1, *x]
                          ^

            """)
    }

    func testBillionLaughsIsRefusedAtTheAliasThatCrossesTheBudget() {
        // Sizes: a = 10 nodes, b = 91, c = 820, d = 7,381, e = 66,430. The aliases in b...e add
        // 74,718 nodes; f's first *e adds 66,430 more and crosses 100,000.
        XCTAssertEqual(
            renderedLoadError(Self.billionLaughs(levels: 9)),
            """
            t.yaml:6:8: error: aliases expand to more than 100000 nodes; the file is refused (an alias bomb?)
                f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
                       ^

            """)
    }

    func testAliasesAreNeverExpanded() {
        // 9^30 nodes (and 3 × 9^30 bytes) once expanded: this loads only because sizes are
        // memoized per anchor and aliases share the anchored node.
        XCTAssertNotNil(
            loadNode(
                Self.billionLaughs(levels: 30),
                limits: YAMLLimits(maximumAliasExpansion: .max, maximumAliasExpansionBytes: .max)))
    }

    func testAliasTextOverTheBudgetIsRefusedAtTheAliasThatCrossesIt() {
        // Each *a adds the 5 bytes of "hello": the third one brings the total to 15.
        XCTAssertEqual(
            renderedLoadError("a: &a hello\nb: [*a, *a]\nc: *a\n", limits: YAMLLimits(maximumAliasExpansionBytes: 14)),
            """
            t.yaml:3:4: error: aliases expand to more than 14 bytes of text; the file is refused (an alias bomb?)
                c: *a
                   ^

            """)
        XCTAssertNotNil(
            loadNode("a: &a hello\nb: [*a, *a]\nc: *a\n", limits: YAMLLimits(maximumAliasExpansionBytes: 15)))
    }

    func testAliasTextCountsKeysAndWhatNestedAliasesBringIn() {
        // m is 8 bytes ("key" + "value"); n holds two *m, so *n adds 16: 8 + 8 + 16 = 32 in all.
        let text = "m: &m {key: value}\nn: &n [*m, *m]\no: *n\n"
        XCTAssertEqual(
            renderedLoadError(text, limits: YAMLLimits(maximumAliasExpansionBytes: 31)),
            """
            t.yaml:3:4: error: aliases expand to more than 31 bytes of text; the file is refused (an alias bomb?)
                o: *n
                   ^

            """)
        XCTAssertNotNil(loadNode(text, limits: YAMLLimits(maximumAliasExpansionBytes: 32)))
    }

    func testA1MiBScalarMayBeAliasedSixteenTimesButNotSeventeen() {
        // 16 aliases of a 1 MiB scalar are exactly the default 16 MiB budget; the 17th alias of
        // 5,000 is refused where it is, before the other 4,983 cost anything.
        let big = "big: &big " + String(repeating: "x", count: 1 << 20) + "\nuses:\n"
        XCTAssertNotNil(loadNode(big + String(repeating: "  - *big\n", count: 16)))
        XCTAssertThrowsError(
            try YAMLLoader.load(Array((big + String(repeating: "  - *big\n", count: 5_000)).utf8), file: "t.yaml")
        ) { error in
            XCTAssertEqual(
                (error as? YAMLLoadError)?.diagnostics,
                [
                    Diagnostic(
                        .error, file: "t.yaml", mark: at(19, 5),
                        message: "aliases expand to more than 16 MiB of text; the file is refused (an alias bomb?)")
                ])
        }
    }

    func testFiftyThousandAliasesOfALargeScalarAreRefusedAsTargetFile() {
        // What made validation take seconds: each alias of a 1,000-byte scalar was walked again.
        let text =
            "baseURL: https://a.example\ncases:\n  a:\n    path: /a\n    sample: &s \""
            + String(repeating: "y", count: 1_000)
            + "\"\n  b:\n    path: /b\n    sample:\n      json: ["
            + Array(repeating: "*s", count: 50_000).joined(separator: ", ") + "]\n"
        let result = TargetFileLoader.load(text: text, file: "t.yaml")
        XCTAssertNil(result.api)
        // 16,777 aliases of 1,000 bytes fit in 16 MiB; alias 16,778 is at column 14 + 4 × 16,777.
        XCTAssertEqual(
            result.diagnostics,
            [
                Diagnostic(
                    .error, file: "t.yaml", mark: at(9, 14 + 4 * 16_777),
                    message: "aliases expand to more than 16 MiB of text; the file is refused (an alias bomb?)")
            ])
    }

    /// `a: &a [lol × 9]`, then each next level nine aliases of the one before.
    private static func billionLaughs(levels: Int) -> String {
        let names = (0..<levels).map { level in
            level < 26 ? String(UnicodeScalar(UInt8(ascii: "a") + UInt8(level))) : "z\(level)"
        }
        var text = "\(names[0]): &\(names[0]) [" + Array(repeating: "lol", count: 9).joined(separator: ", ") + "]\n"
        for (previous, name) in zip(names, names.dropFirst()) {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        return text
    }

    // MARK: Reading files

    func testReadFileRefusesMissingFilesDirectoriesAndOversizedFilesByName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yaml-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("t.yaml")
        try Data("a: 12345678\n".utf8).write(to: file)

        XCTAssertEqual(try YAMLLoader.readFile(atPath: file.path), Array("a: 12345678\n".utf8))
        func message(_ path: String, limits: YAMLLimits = .default) -> String? {
            do {
                _ = try YAMLLoader.readFile(atPath: path, file: "shown.yaml", limits: limits)
                return nil
            } catch {
                return DiagnosticRenderer.render(error.diagnostics, source: nil)
            }
        }
        XCTAssertEqual(
            message(file.path, limits: YAMLLimits(maximumFileSize: 10)),
            "shown.yaml: error: file is too large (12 bytes; the limit is 10 bytes)\n")
        XCTAssertEqual(
            message(folder.appendingPathComponent("missing.yaml").path),
            "shown.yaml: error: cannot read the file: no such file or directory\n")
        XCTAssertEqual(message(folder.path), "shown.yaml: error: cannot read the file: it is a directory\n")
    }
}
