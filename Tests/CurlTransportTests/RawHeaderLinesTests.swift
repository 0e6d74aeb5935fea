import Dispatch
import HTTPTypes
import Synchronization
import XCTest

@testable import CurlTransport

/// Issue 16: the transport keeps header lines raw (`RawHeaderLines`) and reads them when the
/// response is assembled. The result must be that of reading each line as it came.
final class RawHeaderLinesTests: XCTestCase {
    private func assertSameAsDirect(_ lines: [String], file: StaticString = #filePath, line: UInt = #line) {
        var direct = ResponseHeaderCollector()
        var raw = RawHeaderLines()
        for text in lines {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer {
                direct.consume($0)
                raw.append($0)
            }
        }
        let replayed = raw.collected
        XCTAssertEqual(replayed.httpVersion, direct.httpVersion, "\(lines)", file: file, line: line)
        XCTAssertEqual(replayed.finishedFields, direct.finishedFields, "\(lines)", file: file, line: line)
        // A head made from the raw lines reads them only when asked: the same answers, from
        // copies too, and from several threads at once.
        let url = URL(string: "http://127.0.0.1/a")
        let eager = HTTPResponseHead(
            statusCode: 200, headers: direct.finishedFields, url: url, httpVersion: direct.httpVersion ?? "HTTP/1.1")
        let lazy = HTTPResponseHead(statusCode: 200, headerLines: raw, url: url)
        let copy = lazy
        let readers = DispatchGroup()
        let answers = Mutex<[HTTPFields]>([])
        for _ in 0..<4 {
            DispatchQueue.global().async(group: readers) {
                let fields = copy.headers
                answers.withLock { $0.append(fields) }
            }
        }
        readers.wait()
        XCTAssertEqual(
            answers.withLock { $0 }, Array(repeating: eager.headers, count: 4), "\(lines)", file: file, line: line)
        XCTAssertEqual(lazy, eager, "\(lines)", file: file, line: line)
        XCTAssertEqual(lazy.hashValue, eager.hashValue, file: file, line: line)
        XCTAssertEqual(lazy.httpVersion, eager.httpVersion, file: file, line: line)
        // Setting one part keeps the other, and leaves copies alone.
        var changed = HTTPResponseHead(statusCode: 200, headerLines: raw, url: url)
        changed.httpVersion = "HTTP/3"
        XCTAssertEqual(changed.headers, eager.headers, file: file, line: line)
        changed.headers = [.contentType: "text/plain"]
        XCTAssertEqual(changed.httpVersion, "HTTP/3", file: file, line: line)
        XCTAssertEqual(changed.headers, [.contentType: "text/plain"], file: file, line: line)
        XCTAssertNotEqual(changed, lazy, file: file, line: line)
        XCTAssertEqual(copy.headers, eager.headers, file: file, line: line)
    }

    func testReplayedLinesGiveTheFieldsOfLinesReadAsTheyCame() {
        assertSameAsDirect([])
        assertSameAsDirect(["HTTP/1.1 200 OK\r\n", "Server: nginx\r\n", "Content-Type: application/json\r\n", "\r\n"])
        assertSameAsDirect([
            "HTTP/1.1 301 Moved\r\n", "Location: /a\r\n", "\r\n", "HTTP/2 200\r\n", "x-final: yes\r\n", "\r\n"
        ])
        assertSameAsDirect(["HTTP/1.1 200 OK\r\n", "X-Folded: first\r\n", "   second part \r\n", "\tthird\r\n", "\r\n"])
        assertSameAsDirect(["HTTP/1.1 200 OK\n", "X-Bare-LF: v\n", "X-Bare-CR: v\r", "X-Odd: v\n\r", "\n", ""])
        assertSameAsDirect([
            "HTTP/1.1 200 OK\r\n", "no colon here\r\n", ": no name\r\n", "X-Ünïcode: välue\r\n", "X-Pending: 1"
        ])
        assertSameAsDirect([
            "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "X-A: 1\r\n", "\r\n", "X-Trailer: t\r\n", "\r\n"
        ])
        // More than the first reservation, across many lines.
        assertSameAsDirect(
            ["HTTP/1.1 200 OK\r\n"] + (0..<200).map { "X-Header-\($0): \(String(repeating: "v", count: $0))\r\n" } + [
                "\r\n"
            ])
    }
}
