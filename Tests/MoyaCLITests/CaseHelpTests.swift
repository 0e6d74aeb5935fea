import CLITestSupport
import Foundation
import TextSafety
import XCTest

/// `call API --help` and `call API CASE --help`: help written from the target file, exact text.
final class CaseHelpTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try folder.write(
            "targets/shop.yaml",
            """
            api: shop
            description: A small shop API
            baseURL: http://127.0.0.1:1
            cases:
              items:
                description: List items
                values:
                  - q: {type: string, description: "Search text"}
                  - page: {type: int, default: 1}
                  - sort: {enum: [name, price], default: name, description: "Order"}
                  - mine: {type: bool, default: false}
                path: /items
                task: {parameters: {q: "{q}", page: "{page}", sort: "{sort}", mine: "{mine}"}, encoding: url}
                samples:
                  ok: {json: []}
                  empty: {status: 204}
                examples:
                  - [shoes]
                  - {q: "red shoes", page: 2}
                  - {q: "it's", sort: price, page: 1}
              create:
                method: POST
                values: [{lang: {enum: [en, de], default: en}}, {name: string}, {photo: {type: file, default: photo.png}}]
                path: /items/{lang}
                task:
                  multipart:
                    - {name: name, value: "{name}"}
                    - {name: photo, file: "{photo}"}
                sample: {status: 201}
                examples: [{name: Hat}, {name: Hut, lang: de}]
              ping:
                path: /ping
            """)
        try folder.write("targets/photo.png", "png")
    }

    func help(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, currentDirectory: folder.url)
    }

    func testAPIHelpListsTheCases() throws {
        let result = try help(["call", "shop", "--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            USAGE: moya-cli call shop <case> [values...]

            A small shop API

              file: targets/shop.yaml
              trust: untrusted (reads only the variables MOYA_ALLOW_ENV allows; runs no command)

            CASES:
              items   GET   /items         List items
              create  POST  /items/{lang}
              ping    GET   /ping

            See 'moya-cli call shop <case> --help' for a case's values.

            """)
        XCTAssertEqual(
            try help(["curl", "shop", "-h"]).stdout,
            result.stdout.replacingOccurrences(of: "moya-cli call", with: "moya-cli curl"))
    }

    func testCaseHelpDescribesValuesSamplesAndExamples() throws {
        let result = try help(["call", "shop", "items", "--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            USAGE: moya-cli call shop items <q> [--page <int>] [--sort <name|price>] [--mine <bool>]

            List items

              GET /items    task: requestParameters
              file: targets/shop.yaml
              trust: untrusted (reads only the variables MOYA_ALLOW_ENV allows; runs no command)

            VALUES:
              q     string      required        Search text
              page  int         default: 1
              sort  name|price  default: name   Order
              mine  bool        default: false

            SAMPLES (--stub --sample NAME): ok (default), empty

            EXAMPLES:
              moya-cli call shop items shoes
              moya-cli call shop items 'red shoes' --page 2
              moya-cli call shop items 'it'\\''s' --sort price

            """)
    }

    func testExamplesAreRunnableAsPrinted() throws {
        let text = try help(["call", "shop", "items", "--help"]).stdout
        let examples = try XCTUnwrap(text.components(separatedBy: "EXAMPLES:\n").last).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(examples.count, 3)
        // Each printed example, run by a shell with --stub, is accepted (exit 0).
        for example in examples {
            let binary = CLIRunner.binaryURL.path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c",
                example.replacingOccurrences(of: "moya-cli ", with: "'\(binary)' ", options: .anchored)
                    + " --stub >/dev/null"
            ]
            process.currentDirectoryURL = folder.url
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, example)
        }
    }

    func testOptionalValueBeforeARequiredOneIsPositionalAndCurlShowsNoSamples() throws {
        let result = try help(["curl", "shop", "create", "--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // A file default is resolved against the target file's folder, and shown resolved.
        let photo = folder.url.appendingPathComponent("targets/photo.png").path
        XCTAssertEqual(
            result.stdout,
            """
            USAGE: moya-cli curl shop create <lang> <name> [--photo <file>]

              POST /items/{lang}    task: uploadMultipart
              file: targets/shop.yaml
              trust: untrusted (reads only the variables MOYA_ALLOW_ENV allows; runs no command)
              reads: {photo}

            VALUES:
              lang   en|de   default: en
              name   string  required
              photo  file    default: \(photo)

            EXAMPLES:
              moya-cli curl shop create en Hat
              moya-cli curl shop create de Hut

            """)

        let plain = try help(["call", "shop", "ping", "-h"])
        XCTAssertEqual(
            plain.stdout,
            """
            USAGE: moya-cli call shop ping

              GET /ping    task: requestPlain
              file: targets/shop.yaml
              trust: untrusted (reads only the variables MOYA_ALLOW_ENV allows; runs no command)

            """)
    }
}

/// Issue 28, item 10: on a terminal, API and case help fit its width, wrapped with a hanging
/// indent and aligned columns; a pipe gets whole lines (the exact texts above).
extension CaseHelpTests {
    private func onTerminal(_ arguments: [String], environment: [String: String] = [:], columns: Int? = nil) throws
        -> CLIResult
    {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is not installed")
        return try CLIRunner.runOnTerminal(
            arguments, in: folder.url, home: folder.url, environment: environment, columns: columns)
    }

    func testCaseHelpFitsSixtyColumns() throws {
        let expected = #"""
            USAGE: moya-cli call shop items <q> [--page <int>]
                   [--sort <name|price>] [--mine <bool>]

            List items

              GET /items    task: requestParameters
              file: targets/shop.yaml
              trust: untrusted (reads only the variables MOYA_ALLOW_ENV
                allows; runs no command)

            VALUES:
              q     string      required        Search text
              page  int         default: 1
              sort  name|price  default: name   Order
              mine  bool        default: false

            SAMPLES (--stub --sample NAME): ok (default), empty

            EXAMPLES:
              moya-cli call shop items shoes
              moya-cli call shop items 'red shoes' --page 2
              moya-cli call shop items 'it'\''s' --sort price

            """#
        let fromColumns = try onTerminal(["call", "shop", "items", "--help"], environment: ["COLUMNS": "60"])
        XCTAssertEqual(fromColumns.status, 0, fromColumns.stdout)
        XCTAssertEqual(fromColumns.stdout, expected)
        let fromWindow = try onTerminal(["call", "shop", "items", "--help"], columns: 60)
        XCTAssertEqual(fromWindow.stdout, expected, "the window size when COLUMNS is unset")
    }

    func testAPIHelpFitsFortyFourColumns() throws {
        let result = try onTerminal(["call", "shop", "--help"], environment: ["COLUMNS": "44"])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertEqual(
            result.stdout,
            """
            USAGE: moya-cli call shop <case> [values...]

            A small shop API

              file: targets/shop.yaml
              trust: untrusted (reads only the variables
                MOYA_ALLOW_ENV allows; runs no command)

            CASES:
              items   GET   /items         List items
              create  POST  /items/{lang}
              ping    GET   /ping

            See 'moya-cli call shop <case> --help' for a
            case's values.

            """)
    }

    func testALongDescriptionGoesBelowItsRowRatherThanIntoANarrowColumn() throws {
        try folder.write(
            "targets/repos.yaml",
            """
            api: repos
            baseURL: http://127.0.0.1:1
            cases:
              repositoryIssues:
                description: Issues of a repository, newest first, in pages of thirty
                values:
                  - owner: string
                  - state: {enum: [open, closed, all], default: open, description: "Which issues to list, by their state"}
                path: /repos/{owner}/issues
                task: {parameters: {state: "{state}"}, encoding: url}
            """)
        let apiHelp = try onTerminal(["call", "repos", "--help"], environment: ["COLUMNS": "50"])
        XCTAssertEqual(apiHelp.status, 0, apiHelp.stdout)
        XCTAssertTrue(
            apiHelp.stdout.contains(
                """
                CASES:
                  repositoryIssues  GET  /repos/{owner}/issues
                      Issues of a repository, newest first, in
                      pages of thirty

                """), apiHelp.stdout)
        let caseHelp = try onTerminal(["call", "repos", "repositoryIssues", "--help"], environment: ["COLUMNS": "50"])
        XCTAssertEqual(caseHelp.status, 0, caseHelp.stdout)
        XCTAssertTrue(
            caseHelp.stdout.contains(
                """
                VALUES:
                  owner  string           required
                  state  open|closed|all  default: open
                      Which issues to list, by their state

                """), caseHelp.stdout)
        let piped = try help(["call", "repos", "--help"])
        XCTAssertTrue(
            piped.stdout.contains(
                "  repositoryIssues  GET  /repos/{owner}/issues  Issues of a repository, newest first, in pages of thirty\n"
            ), "a pipe keeps the row whole: \(piped.stdout)")
    }

    func testHostileHelpTextNeverWidensALineOrReachesTheTerminal() throws {
        let longName = String(repeating: "n", count: 500)
        let choices = (0..<40).map { "choice\($0)" }.joined(separator: ", ")
        try folder.write(
            "targets/odd.yaml",
            """
            api: odd
            description: "天気の API \\e]0;pwned\\a\\e[2J \(String(repeating: "w", count: 300))"
            baseURL: http://127.0.0.1:9
            cases:
              \(longName): {path: "/\(String(repeating: "p", count: 200))", sample: ok}
              weather:
                description: "東京の天気を返します。\\u202eとても長い説明です \\e[31mred\\e[0m"
                values: [{place: {enum: [\(choices)], description: "場所 \\x1b[1mbold"}}, {days: {type: int, default: 3}}]
                path: /weather/{place}
                task: {parameters: {days: "{days}"}, encoding: url}
                sample: ok
                examples: [[choice1]]
            """)
        for (value, width) in [("80", 80), ("60", 60), ("1", 20), ("0", 50), ("junk", 50)] {
            for words in [
                ["call", "odd", "--help"], ["call", "odd", "weather", "--help"], ["curl", "odd", longName, "-h"]
            ] {
                let result = try onTerminal(words, environment: ["COLUMNS": value], columns: 50)
                XCTAssertEqual(result.status, 0, result.stdout)
                XCTAssertFalse(
                    result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{7}" },
                    "escaped: \(result.stdout)")
                for line in result.stdout.split(separator: "\n") {
                    XCTAssertLessThanOrEqual(
                        DisplayColumns.width(of: String(line)), width, "COLUMNS=\(value) \(words): \(line)")
                }
                let piped = try CLIRunner.run(words, environment: ["COLUMNS": value], currentDirectory: folder.url)
                // Table cells wrap side by side, so the characters are compared, not their order.
                XCTAssertEqual(
                    result.stdout.unicodeScalars.filter { !$0.properties.isWhitespace }.map(\.value).sorted(),
                    piped.stdout.unicodeScalars.filter { !$0.properties.isWhitespace }.map(\.value).sorted(),
                    "the terminal shows what the pipe gets, only wrapped")
            }
        }
    }
}
