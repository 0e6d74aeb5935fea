import HTTPTypes
import XCTest

@testable import CurlTransport

/// Issue 16: `ResponseHeaderCollector` reads ASCII header lines as bytes. Its answers must be those
/// of the character-based reading it replaced for them (kept below as the reference), for every
/// kind of line a server may send: status lines, folded continuations, blank lines, lines without
/// a colon, bare `\r` or `\n` endings, CRLF, and non-ASCII lines (which still take that path).
final class ResponseHeaderCollectorTests: XCTestCase {
    /// The character-based reading, as it was.
    private struct Reference {
        var httpVersion: String?
        var fields = HTTPFields()
        var lastName: HTTPField.Name?
        var lastValue = ""

        mutating func consume(_ line: [UInt8]) {
            var text = String(decoding: line, as: UTF8.self)
            while let last = text.last, last == "\n" || last == "\r" { text.removeLast() }
            if text.hasPrefix("HTTP/") {
                flush()
                fields = HTTPFields()
                httpVersion = text.split(separator: " ", maxSplits: 1).first.map(String.init)
                return
            }
            if text.isEmpty {
                flush()
                return
            }
            if let first = text.first, first == " " || first == "\t" {
                if lastName != nil { lastValue += " " + Self.trimmed(text) }
                return
            }
            flush()
            guard let colon = text.firstIndex(of: ":"), let name = HTTPField.Name(String(text[..<colon])) else {
                return
            }
            lastName = name
            lastValue = Self.trimmed(String(text[text.index(after: colon)...]))
        }

        mutating func flush() {
            guard let name = lastName else { return }
            fields.append(HTTPField(name: name, value: lastValue))
            lastName = nil
            lastValue = ""
        }

        static func trimmed(_ text: String) -> String {
            let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            guard let start = text.firstIndex(where: { !isBlank($0) }),
                let end = text.lastIndex(where: { !isBlank($0) })
            else { return "" }
            return String(text[start...end])
        }
    }

    private func assertSameAsReference(_ lines: [String], file: StaticString = #filePath, line: UInt = #line) {
        var collector = ResponseHeaderCollector()
        var reference = Reference()
        for text in lines {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { collector.consume($0) }
            reference.consume(bytes)
        }
        reference.flush()
        XCTAssertEqual(collector.httpVersion, reference.httpVersion, "\(lines)", file: file, line: line)
        XCTAssertEqual(collector.finishedFields, reference.fields, "\(lines)", file: file, line: line)
    }

    func testASCIILinesReadAsBytesGiveTheSameFields() {
        assertSameAsReference([
            "HTTP/1.1 200 OK\r\n", "Server: nginx\r\n", "Content-Type: application/json\r\n",
            "Content-Length: 12\r\n", "\r\n"
        ])
        assertSameAsReference([
            "HTTP/2 200\r\n", "content-type:text/plain\r\n", "x-empty:\r\n", "x-blank:   \t \r\n", "\r\n"
        ])
        assertSameAsReference([
            "HTTP/1.1 301 Moved\r\n", "Location: /a\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "X-Final: yes\r\n", "\r\n"
        ])
        assertSameAsReference([
            "HTTP/1.1 200 OK\r\n", "X-Folded: first\r\n", "   second part \r\n", "\tthird\r\n", "X-Next: n\r\n", "\r\n"
        ])
        assertSameAsReference([
            "HTTP/1.1 200 OK\n", "X-Bare-LF: v\n", "X-Bare-CR: v\r", "X-Odd: v\n\r", "X-Twice: v\r\r\n", "\n"
        ])
        assertSameAsReference([
            "HTTP/1.1 200 OK\r\n", "no colon here\r\n", ": no name\r\n", "bad name: v\r\n", "X-Colons: a:b:c\r\n"
        ])
        assertSameAsReference(["  continuation before any field\r\n", "HTTP/1.1\r\n", "X-A: 1"])
        assertSameAsReference(["HTTP/1.1 200 OK\r\n", "X-Ctl: a\u{1}b\u{7F}c\r\n", "X-NUL: a\u{0}b\r\n", "\r\n"])
        assertSameAsReference(["HTTPS/1.1 200\r\n", "HTTP/", "X-After: 1\r\n"])
        assertSameAsReference(["\r\n", "\r", "\n", ""])
    }

    /// The collector drops a value's trailing CR, LF, space and tab bytes before making the field,
    /// which `HTTPField` drops too: the fields must be the same, whatever else the value holds.
    func testTrailingBlanksDroppedEarlyGiveTheSameFields() {
        assertSameAsReference([
            "HTTP/1.1 200 OK\r\n", "X-A: a \r\n", "X-B: b\t\r\n", "X-C: \r\n", "X-D: d\r\r\n\n",
            "X-E: e\r\n", " folded \r\n", "X-F: f\r\n", "\tg\r\n", "X-G: \u{600} \r\n",
            "X-H: h\u{1}\r\n", "X-I: \u{E9}\u{301} \r\n", "X-J: j", "\r\n"
        ])
        var collector = ResponseHeaderCollector()
        for line in ["HTTP/1.1 200 OK\r\n", "Server: nginx/1.22.1\r\n", "X-Folded: a\r\n", " b\r\n", "\r\n"] {
            Array(line.utf8).withUnsafeBufferPointer { collector.consume($0) }
        }
        XCTAssertEqual(collector.finishedFields[.server], "nginx/1.22.1")
        XCTAssertEqual(collector.finishedFields[HTTPField.Name("X-Folded")!], "a   b")
    }

    func testNonASCIILinesStillTakeTheCharacterPath() {
        assertSameAsReference([
            "HTTP/1.1 200 OK\r\n", "X-Name: caf\u{E9}\r\n", "X-Mark:\u{301} v\r\n", "X\u{E9}: v\r\n",
            " \u{301}folded\r\n", "X-Emoji: \u{1F600} \r\n", "\r\n"
        ])
    }
}
