import CLITestSupport
import Foundation
import XCTest

/// Issue 26: `--keypath`, `--all` and `--format json` on a pipe read a JSON body in place and
/// write it out as they go. What they print is what the parsed tree printed: strings decoded and
/// escaped again by the writer's rules, numbers as written, the last of duplicate keys, C1
/// controls escaped in `--all` items, text escaped and binary in base64 in the envelope; also
/// across the writes' chunk boundaries. (Their memory is measured by `make bench`.)
final class InPlaceJSONOutputTests: XCTestCase {
    var sandbox: Sandbox!

    /// Whitespace everywhere, escapes the writer spells otherwise, a raw DEL and a raw U+0085.
    let document =
        " {\n \"name\" : \"caf\\u00e9 \\\"q\\\" \\/ tab\\t\",\r\n \"raw\":\"del\u{7F} nel\u{85}\", "
        + "\"n\":[ 1, -0, 1E2, 2.50, 12345678901234567890 ],\"dup\":1,\"dup\":{\"deep\":[true , null]},\"next\":null } \n"

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        try sandbox.write("targets/samples/doc.json", document)
        try sandbox.write("targets/samples/text.txt", "line1\nline \"2\" \\ \u{01}\u{7F} é")
        var generator = SystemRandomNumberGenerator()
        try sandbox.write(
            "targets/samples/binary.bin",
            bytes: [0xFF, 0x00] + (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let items = (0..<5000).map { #"{"i":\#($0),"s":"\u0085 item"}"# }.joined(separator: " ,\n")
        try sandbox.write("targets/samples/items.json", #"{"items":[\#(items)],"next":null}"#)
        try sandbox.write(
            "targets/doc.yaml",
            """
            api: doc
            baseURL: http://127.0.0.1:9
            pagination: {next: {body: "$.next"}, items: "$.n"}
            cases:
              doc: {path: /doc, sample: {file: samples/doc.json}}
              text: {path: /text, sample: {file: samples/text.txt}}
              binary: {path: /binary, sample: {file: samples/binary.bin}}
              items:
                path: /items
                pagination: {next: {body: "$.next"}, items: "$.items"}
                sample: {file: samples/items.json}
            """)
    }

    func call(_ arguments: [String]) throws -> CLIResult {
        try sandbox.run(["call", "doc"] + arguments + ["--stub"])
    }

    func testKeyPathValuesAreWhatTheParsedBodyGave() throws {
        assertRun(try call(["doc", "--keypath", "name"]), status: 0, stdout: "café \"q\" / tab\t\n", stderr: "")
        assertRun(try call(["doc", "--keypath", "raw"]), status: 0, stdout: "del\u{7F} nel\u{85}\n", stderr: "")
        assertRun(
            try call(["doc", "--keypath", "n"]), status: 0, stdout: "[1,-0,1E2,2.50,12345678901234567890]\n", stderr: ""
        )
        assertRun(try call(["doc", "--keypath", "n.3"]), status: 0, stdout: "2.50\n", stderr: "")
        assertRun(try call(["doc", "--keypath", "dup"]), status: 0, stdout: "{\"deep\":[true,null]}\n", stderr: "")
        assertRun(try call(["doc", "--keypath", "dup.deep.1"]), status: 0, stdout: "null\n", stderr: "")
        assertRun(
            try call(["doc", "--keypath", "n.9"]), status: 1, stdout: "",
            stderr:
                "moya-cli: error: key path 'n.9' not found in the response body: no element '9' in the array at n, which has 5 elements\n"
        )
        assertRun(
            try call(["text", "--keypath", "a"]), status: 1, stdout: "",
            stderr: "moya-cli: error: key path 'a' not found in the response body: the body is not JSON\n")
    }

    func testTheEnvelopeWritesTheBodyCompactAsTextOrInBase64() throws {
        let json = try call(["doc", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(
            json.stdout.contains(
                ",\"body\":{\"name\":\"café \\\"q\\\" / tab\\t\",\"raw\":\"del\\u007f nel\u{85}\","
                    + "\"n\":[1,-0,1E2,2.50,12345678901234567890],\"dup\":1,\"dup\":{\"deep\":[true,null]},\"next\":null},\"bodyBase64\":null,\"timing\":{"
            ),
            json.stdout)
        let text = try call(["text", "--format", "json"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(
            text.stdout.contains(#","body":"line1\nline \"2\" \\ \u0001\u007f é","bodyBase64":null,"timing":{"#),
            text.stdout)
        let binary = try call(["binary", "--format", "json"])
        XCTAssertEqual(binary.status, 0, binary.stderr)
        let bytes = try Data(contentsOf: sandbox.root.appendingPathComponent("targets/samples/binary.bin"))
        XCTAssertTrue(
            binary.stdout.contains(#","body":null,"bodyBase64":"\#(bytes.base64EncodedString())","timing":{"#))
        for result in [json, text, binary] {
            XCTAssertTrue(result.stdout.hasPrefix(#"{"api":"doc","case":""#), result.stdout)
            XCTAssertTrue(result.stdout.hasSuffix("}}\n"), result.stdout)
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: result.stdoutData), "one JSON document")
        }
    }

    func testPageItemsAreWrittenCompactWithC1Escaped() throws {
        assertRun(
            try call(["doc", "--all"]), status: 0, stdout: "[\n1,\n-0,\n1E2,\n2.50,\n12345678901234567890\n]\n",
            stderr: "")
        // Over 300 KB of items: several writes, each item whole and escaped the same way.
        let expected = (0..<5000).map { #"{"i":\#($0),"s":"\u0085 item"}"# }
        assertRun(
            try call(["items", "--all"]), status: 0, stdout: "[\n" + expected.joined(separator: ",\n") + "\n]\n",
            stderr: "")
        // A string --keypath selects is printed as a single call prints it (issue 28): unquoted,
        // its bytes as they are on a pipe.
        assertRun(
            try call(["items", "--all", "--format", "jsonl", "--keypath", "s"]), status: 0,
            stdout: String(repeating: "\u{85} item\n", count: 5000), stderr: "")
    }
}
