import XCTest

@testable import CurlTransport

/// RFC 3492's punycode and the host rewrite libcurl is given (issue 46 item 8).
final class IDNAHostTests: XCTestCase {
    func testPunycodeMatchesRFC3492SampleStrings() {
        let samples: [(String, String)] = [
            ("bücher", "bcher-kva"), ("münchen", "mnchen-3ya"),
            // RFC 3492 7.1 (A) Arabic (Egyptian), (L) 3<nen>B<gumi><kinpachi><sensei>
            (
                "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}"
                    + "\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}",
                "egbpdaj6bu4bxfgehfvwxn"
            ),
            ("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}", "3B-ww4c5e180e575a65lsy2b")
        ]
        for (text, encoded) in samples {
            XCTAssertEqual(IDNAHost.punycode(text.unicodeScalars.map(\.value)), encoded, text)
        }
    }

    func testOnlyAnInternationalisedHostChanges() {
        XCTAssertEqual(
            IDNAHost.asciiURL("https://user:p%40ss@Bücher.example:8443/b%C3%BCcher?q=ü#f"),
            "https://user:p%40ss@xn--bcher-kva.example:8443/b%C3%BCcher?q=ü#f")
        XCTAssertEqual(IDNAHost.asciiURL("http://b%C3%BCcher.example/"), "http://xn--bcher-kva.example/")
        XCTAssertEqual(IDNAHost.asciiURL("http://münchen。de"), "http://xn--mnchen-3ya.de")
        XCTAssertEqual(IDNAHost.asciiURL("http://127.0.0.1:80/ü"), "http://127.0.0.1:80/ü")
        XCTAssertEqual(IDNAHost.asciiURL("http://[::1]:80/"), "http://[::1]:80/")
        // A decoded `/` or `@` would move the host's end: left as it is, for libcurl to refuse.
        XCTAssertEqual(IDNAHost.asciiURL("http://ü%2Fevil.example/"), "http://ü%2Fevil.example/")
        XCTAssertEqual(IDNAHost.asciiURL("http://b%FF.example/"), "http://b%FF.example/")
    }
}
