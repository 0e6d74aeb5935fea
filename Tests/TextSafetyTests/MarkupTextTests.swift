import TextSafety
import XCTest

/// Issue 27, item 5: XML (JUnit), TAP and YAML text, each with the characters its reader chokes on.
final class MarkupTextTests: XCTestCase {
    func testXMLEscapesMarkupKeepsLineBreaksAndReplacesForbiddenCharacters() {
        XCTAssertEqual(
            XMLText.escaped(#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
        XCTAssertEqual(XMLText.escaped("a\nb\tc\r\nd"), "a&#10;b&#9;c&#13;&#10;d")
        XCTAssertEqual(XMLText.escaped("\u{0}\u{1B}[2J\u{FFFE}\u{FFFF}"), "\u{FFFD}\u{FFFD}[2J\u{FFFD}\u{FFFD}")
        XCTAssertEqual(XMLText.escaped("\u{7F}\u{85}\u{202E}é"), "\u{7F}\u{85}\u{202E}é", "allowed in XML 1.0")
        XCTAssertEqual(XMLText.escaped(""), "")
        XCTAssertEqual(
            XMLText.escaped(String(repeating: "<&", count: 50_000)), String(repeating: "&lt;&amp;", count: 50_000))
    }

    func testTAPKeepsOneLineAndEscapesHashAndBackslash() {
        XCTAssertEqual(TAPText.escaped("ok # TODO"), ##"ok \# TODO"##)
        XCTAssertEqual(TAPText.escaped(#"C:\path"#), #"C:\\path"#)
        XCTAssertEqual(TAPText.escaped("a\nb\r\nc\rd"), #"a\\nb\\r\\nc\\rd"#)
        XCTAssertEqual(TAPText.escaped("\u{1B}[2J\u{0}\u{9B}\u{202E}"), #"\\e[2J\\0\\u{9b}\\u{202e}"#)
        XCTAssertEqual(TAPText.escaped("日本 é"), "日本 é")
    }

    func testYAMLDoubleQuotedEscapesWhatLibyamlWouldReadOtherwise() {
        XCTAssertEqual(YAMLScalar.doubleQuoted(""), #""""#)
        XCTAssertEqual(YAMLScalar.doubleQuoted(#"say "hi" \ #x: y"#), #""say \"hi\" \\ #x: y""#)
        XCTAssertEqual(YAMLScalar.doubleQuoted("\n\t\r\u{0}\u{1B}\u{7F}"), #""\n\t\r\x00\x1B\x7F""#)
        XCTAssertEqual(
            YAMLScalar.doubleQuoted("\u{85}\u{9F}\u{2028}\u{2029}\u{FEFF}"), #""\u0085\u009F\u2028\u2029\uFEFF""#)
        XCTAssertEqual(YAMLScalar.doubleQuoted("\u{202E}é😀"), "\"\u{202E}é😀\"")
    }

    func testYAMLCommentLineStaysOneLine() {
        XCTAssertEqual(
            YAMLScalar.commentLine("a\nb\u{2028}c\u{2029}d\u{FEFF}e\u{85}"), #"a\nb\u{2028}c\u{2029}d\u{feff}e\u{85}"#)
        XCTAssertEqual(YAMLScalar.commentLine("plain # text"), "plain # text")
    }

    func testYAMLJSONQuotedIsTheJSONWritersString() {
        XCTAssertEqual(YAMLScalar.jsonQuoted("a\"\\\n\u{1B}\u{7F}é"), #""a\"\\\n\u001b\u007fé""#)
    }
}
