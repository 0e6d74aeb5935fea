import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 46 item 8: `Accept-Language` from the locale, as URLSession sends it, and text bodies
/// decoded by their charset in `--format json`.
final class LocaleAndCharsetTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)
        cases:
          echo: {path: /anything, sample: ok}
          french: {path: /anything, headers: {accept-language: fr}, sample: ok}
          text:
            values: [{hex: string}, {type: string}]
            path: /reply
            task: {parameters: {hex: "{hex}", type: "{type}"}, encoding: url}
            sample: ok
        """
    }

    private func run(_ arguments: [String], locale: [String: String]) throws -> CLIResult {
        try CLIRunner.run(
            arguments, environment: ["HOME": folder.url.path].merging(locale) { _, new in new },
            currentDirectory: folder.url)
    }

    func testAcceptLanguageComesFromTheLocaleUnlessTheFileOrTheCommandLineSetsOne() throws {
        let runs: [([String], [String: String])] = [
            (["call", "web", "echo"], ["LANG": "de_DE.UTF-8"]),
            (["call", "web", "echo"], ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "pt_BR"]),
            (["call", "web", "echo"], ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "pt_BR", "LC_ALL": "sv"]),
            (["call", "web", "echo"], ["LANG": "es_419.UTF-8@euro"]),
            (["call", "web", "echo"], ["LANG": "C.UTF-8"]),
            (["call", "web", "echo"], ["LANG": "POSIX"]),
            (["call", "web", "echo"], [:]),
            (["call", "web", "echo"], ["LANG": "de_DE.UTF-8", "LC_ALL": ""]),
            (["call", "web", "echo"], ["LANG": "x\r\nEvil: 1"]),
            (["call", "web", "french"], ["LANG": "de_DE.UTF-8"]),
            (["call", "web", "echo", "-H", "Accept-Language: it"], ["LANG": "de_DE.UTF-8"]),
            (["call", "web", "echo", "-H", "Accept-Language:"], ["LANG": "de_DE.UTF-8"]),
            (["check", "solo", "--live"], ["LANG": "de_DE.UTF-8"])
        ]
        try folder.write(
            "targets/solo.yaml",
            "api: solo\nbaseURL: \(server.baseURL.absoluteString)\ncases:\n  echo: {path: /anything}\n")
        for (arguments, locale) in runs {
            let result = try run(arguments, locale: locale)
            XCTAssertEqual(result.status, 0, "\(arguments) \(locale): \(result.stderr)")
        }
        XCTAssertEqual(
            server.receivedRequests.map { $0.values(of: "Accept-Language") },
            [
                ["de-DE,de;q=0.9"], ["pt-BR,pt;q=0.9"], ["sv"], ["es-419,es;q=0.9"], [], [], [], ["de-DE,de;q=0.9"],
                [], ["fr"], ["it"], [], ["de-DE,de;q=0.9"]
            ])
        XCTAssertTrue(server.receivedRequests.allSatisfy { $0.values(of: "Evil").isEmpty })
        let curl = try run(["curl", "web", "echo"], locale: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(curl.stdout.contains("-H 'Accept-Language: de-DE,de;q=0.9'"), curl.stdout)
        let plain = try run(["curl", "web", "echo"], locale: ["LANG": "C"])
        XCTAssertFalse(plain.stdout.contains("Accept-Language"), plain.stdout)
    }

    /// The `body` member of `--format json` (piped: `EnvelopeWriter`) for `hex` served as `type`.
    private func body(hex: String, type: String) throws -> (body: Any, base64: Any) {
        let result = try run(["call", "web", "text", hex, type, "--format", "json"], locale: [:])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        return (object["body"] ?? NSNull(), object["bodyBase64"] ?? NSNull())
    }

    func testTextBodiesAreDecodedByTheirCharsetInTheJSONEnvelope() throws {
        // "café ½€" in each charset; € is not in latin-1 (0x80 there is a C1 control).
        let cases: [(hex: String, type: String, text: String)] = [
            ("636166e920bd", "text/plain; charset=iso-8859-1", "café ½"),
            ("636166e920bd", "text/plain;charset=\"Latin1\"", "café ½"),
            ("636166e920bd80", "text/plain; charset=windows-1252", "café ½€"),
            ("636166c3a920c2bd", "text/plain; charset=utf-8", "café ½"),
            ("636166c3a920c2bd", "text/plain; charset=us-ascii", "café ½"),
            ("feff00630061006600e9002020ac", "text/plain; charset=utf-16", "café €"),
            ("fffe630061006600e9002000ac20", "text/plain; charset=UTF-16", "café €"),
            ("6300610066002000", "text/plain; charset=utf-16le", "caf ")
        ]
        for item in cases {
            let got = try body(hex: item.hex, type: item.type)
            XCTAssertEqual(got.body as? String, item.text, "\(item)")
            XCTAssertTrue(got.base64 is NSNull, "\(item)")
        }
        // On a terminal the pretty envelope (`ResponseWriter.envelope`) decodes the same way.
        let screen = try CLIRunner.runOnTerminal(
            ["call", "web", "text", "636166e920bd", "text/plain; charset=iso-8859-1", "--format", "json"],
            in: folder.url, home: folder.url)
        XCTAssertEqual(screen.status, 0, screen.stdout)
        XCTAssertTrue(screen.stdout.contains("café ½"), screen.stdout)
        // An unknown charset, or a body invalid in its charset: as before, base64.
        for (hex, type) in [
            ("636166e9", "text/plain; charset=koi8-r"), ("636166e9", "text/plain"),
            ("fffe630061", "text/plain; charset=utf-16"), ("fffe00d8", "text/plain; charset=utf-16")
        ] {
            let got = try body(hex: hex, type: type)
            XCTAssertTrue(got.body is NSNull, "\(hex) \(type)")
            XCTAssertEqual(got.base64 as? String, Data(hexString: hex).base64EncodedString(), "\(hex) \(type)")
        }
    }
}

extension Data {
    fileprivate init(hexString: String) {
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while let next = hexString.index(index, offsetBy: 2, limitedBy: hexString.endIndex), index < next {
            bytes.append(UInt8(hexString[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
