import ArgumentParser
import CLITestSupport
import Foundation
import XCTest

@testable import moya_cli

/// `call` and `curl` lines are parsed by `DirectParser` when it is sure, by ArgumentParser otherwise;
/// both must make the same invocation, and ArgumentParser must know exactly the tables' options, with
/// their help and value names.
final class DirectParserTests: XCTestCase {
    typealias Call = MoyaCommand.Call
    typealias Curl = MoyaCommand.Curl

    // `sampleValues`, a valid value for each option that takes one, is generated with the options
    // (OptionSamples+Generated.swift).

    /// Options that only parse together with another one (`validate()` refuses them alone).
    static let companions: [String: [String]] = [
        "--delay": ["--stub"], "--sample": ["--stub"], "--key": ["--cert", "client.pem"],
        "--cert-type": ["--cert", "client.p12"], "--format": [],
        "--max-pages": ["--all"],
        "--rate": ["--live"], "--include-unsafe": ["--live"], "--strict": ["--live"],
        "--record-failures": ["--record"], "--record-headers": ["--record"], "--digest": ["-u", "ann:pw"]
    ]

    /// `check`'s own needs: it records live responses only.
    static let checkCompanions: [String: [String]] = [
        "--record": ["--live"], "--record-name": ["--live"], "--record-failures": ["--record", "--live"],
        "--record-headers": ["--record", "--live"]
    ]

    // MARK: - The tables against ArgumentParser's own description

    func testCallTableListsEveryOptionArgumentParserDeclares() throws {
        try assertTable(CallInvocation.table, matches: "call")
    }

    func testCurlTableListsEveryOptionArgumentParserDeclares() throws {
        try assertTable(CurlInvocation.table, matches: "curl")
    }

    func testValidateTableListsEveryOptionArgumentParserDeclares() throws {
        try assertTable(ValidateInvocation.table, matches: "validate")
    }

    func testCheckTableListsEveryOptionArgumentParserDeclares() throws {
        try assertTable(CheckInvocation.table, matches: "check")
    }

    /// `check`'s words are APIs; an unknown `--name`, an invalid combination or value are
    /// ArgumentParser's to refuse.
    func testCheckLinesAgreeAndTheRestIsDeclined() throws {
        try assertEveryOptionAgrees(MoyaCommand.Check.self)
        for line in [
            [], ["github"], ["--live", "--jobs", "16", "github", "httpbin", "--report", "json:-", "--report=tap:t.tap"],
            ["--only", "a*", "--skip=b?", "--only", "c", "--shard", "2/3", "-k", "--retry", "2", "--env", "staging"],
            [
                "--all", "--max-pages", "5", "--targets", "t", "--no-color", "--live", "--strict", "--include-unsafe",
                "--rate", "0.5"
            ]
        ] {
            try assertAgreement(line, as: MoyaCommand.Check.self)
        }
        let declined: [[String]] = [
            ["--bogus"], ["github", "--name", "x"], ["--jobs", "0"], ["--jobs", "many"], ["--rate", "1"], ["--strict"],
            ["--report", "xml:a.xml"], ["--report", "junit"], ["--report", "json:a", "--report", "tap:a"],
            ["--shard", "3"],
            ["--max-pages", "2"], ["--only", ""], ["--live", "--live"], ["-"], ["--", "github"], ["--help"],
            ["--version"]
        ]
        try assertDeclined(
            declined, as: CheckInvocation.self, command: "check",
            refusals: [["--bogus"]: "--bogus", ["--report", "xml:a.xml"]: "'xml' is not a format"],
            helpMentions: "--report")
    }

    func testListTableListsEveryOptionArgumentParserDeclares() throws {
        try assertTable(ListInvocation.table, matches: "list")
    }

    /// `list` takes one API at most; an unknown `--name`, a second word or a bad format are
    /// ArgumentParser's to refuse.
    func testListLinesAgreeAndTheRestIsDeclined() throws {
        for line in [
            [], ["github"], ["--format", "json"], ["--format=table", "github"],
            ["github", "--targets", "t", "--no-color"],
            ["--file-root", "/tmp", "--targets=u", "httpbin", "--format", "json"], ["ünïcode"]
        ] {
            try assertAgreement(line, as: MoyaCommand.List.self)
        }
        let declined: [[String]] = [
            ["github", "httpbin"], ["--bogus"], ["github", "--name", "x"], ["--format", "xml"], ["--format"],
            ["--format", "-x"],
            ["--format", "json", "--format", "table"], ["-"], ["--", "github"], ["--targets"], ["--help"],
            ["--version"],
            ["--file-root", "/nonexistent-moya-folder"]
        ]
        try assertDeclined(
            declined, as: ListInvocation.self, command: "list",
            refusals: [["github", "httpbin"]: "httpbin", ["--format", "xml"]: "xml"], helpMentions: "--format")
    }

    /// `DirectParser` declines each of `lines`; the binary answers each of `refusals` with exit 64
    /// and an error naming what it says; `-h` prints the help `--help` prints.
    private func assertDeclined<Invocation: DirectlyParsable>(
        _ lines: [[String]], as _: Invocation.Type, command: String, refusals: [[String]: String],
        helpMentions option: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for declined in lines {
            XCTAssertNil(
                DirectParser.parse(declined, as: Invocation.self), "\(declined) should be left to ArgumentParser",
                file: file, line: line)
        }
        for (arguments, message) in refusals {
            let refused = try CLIRunner.run([command] + arguments)
            XCTAssertEqual(refused.status, 64, "\(arguments)", file: file, line: line)
            XCTAssertTrue(refused.stderr.contains(message), refused.stderr, file: file, line: line)
        }
        let short = try CLIRunner.run([command, "-h"])
        let long = try CLIRunner.run([command, "--help"])
        XCTAssertEqual(short.status, 0, short.stderr, file: file, line: line)
        XCTAssertEqual(short.stdout, long.stdout, file: file, line: line)
        XCTAssertTrue(short.stdout.contains(option), short.stdout, file: file, line: line)
    }

    /// Every spelling and kind in the table is what `--experimental-dump-help` says ArgumentParser
    /// parses, and ArgumentParser's help and value name of each are the table entry's: the command's
    /// options are written once, in the tables.
    private func assertTable<Root>(
        _ table: [OptionDeclaration<Root>], matches command: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try CLIRunner.run([command, "--experimental-dump-help"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let dump = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let arguments = try XCTUnwrap((dump["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        var declared: [String: String] = [:]
        var positionals = 0
        // What ArgumentParser says of each spelling ("words": the positional argument): its help, its value name.
        var described: [String: [String]] = [:]
        for argument in arguments {
            let kind = try XCTUnwrap(argument["kind"] as? String)
            let repeating = argument["isRepeating"] as? Bool ?? false
            let text = [try XCTUnwrap(argument["abstract"] as? String), try XCTUnwrap(argument["valueName"] as? String)]
            if kind == "positional" {
                positionals += 1
                described["words"] = text
                continue
            }
            for name in try XCTUnwrap(argument["names"] as? [[String: String]]) {
                let spelling = (name["kind"] == "short" ? "-" : "--") + (name["name"] ?? "")
                declared[spelling] = kind == "flag" ? "flag" : (repeating ? "repeated" : "value")
                described[spelling] = text
            }
        }
        for option in table {
            if option.help.isEmpty {
                // Only ArgumentParser's own help flag is left for it to word.
                XCTAssertEqual(option.names, ["-h", "--help"], file: file, line: line)
                continue
            }
            for name in option.kind == .words ? ["words"] : option.names {
                let text = try XCTUnwrap(
                    described[name], "ArgumentParser does not declare \(name) of '\(command)'", file: file, line: line)
                XCTAssertEqual(text[0], option.help, "help of \(name) of '\(command)'", file: file, line: line)
                if !option.valueName.isEmpty {
                    XCTAssertEqual(
                        text[1], option.valueName, "value name of \(name) of '\(command)'", file: file, line: line)
                }
            }
        }
        var listed: [String: String] = [:]
        for option in table {
            for name in option.names {
                switch option.kind {
                case .flag, .optionalValue: listed[name] = "flag"
                case .value: listed[name] = "value"
                case .repeated: listed[name] = "repeated"
                case .words: XCTFail("\(option.kind) with a name", file: file, line: line)
                }
            }
        }
        // ArgumentParser answers --version itself; the direct parser declines it (see the test below).
        declared = declared.filter { !DirectParser.builtInOptions.contains($0.key) || listed[$0.key] != nil }
        XCTAssertFalse(declared.isEmpty, file: file, line: line)
        XCTAssertEqual(
            listed, declared, "DirectOption table of '\(command)' differs from ArgumentParser's", file: file, line: line
        )
        XCTAssertEqual(positionals, 1, file: file, line: line)
        XCTAssertEqual(table.filter { $0.kind == .words }.count, 1, file: file, line: line)
    }

    /// `--help` shows the plain groups' defaults, the one place they are written.
    func testHelpShowsThePlainGroupsDefaults() throws {
        let defaults: [(command: String, option: String, shown: String)] = [
            ("call", "retry", String(RequestOptions().retry)),
            ("call", "max-body-size", RequestOptions().maxBodySize.defaultValueDescription),
            ("call", "format", OutputOptions().format.rawValue), ("check", "jobs", String(CheckOptions().jobs)),
            ("list", "format", ListInvocation().format.rawValue)
        ]
        for (command, option, shown) in defaults {
            let result = try CLIRunner.run([command, "--experimental-dump-help"])
            let dump = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
            let arguments = try XCTUnwrap((dump["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
            let argument = try XCTUnwrap(
                arguments.first { ($0["names"] as? [[String: String]])?.contains { $0["name"] == option } == true })
            XCTAssertEqual(argument["defaultValue"] as? String, shown, "\(command) --\(option)")
        }
        XCTAssertEqual(ByteSize.defaultBodyLimit.defaultValueDescription, "256M")
        XCTAssertEqual(ByteSize(bytes: 3 << 30).defaultValueDescription, "3G")
        XCTAssertEqual(ByteSize(bytes: 1536).defaultValueDescription, "1536")
    }

    // MARK: - Both parsers agree

    func testDefaultsAgreeWithArgumentParser() throws {
        try assertAgreement(["github", "zen"], as: Call.self)
        try assertAgreement(["github", "zen"], as: Curl.self)
        XCTAssertEqual(
            DirectParser.parse(["github", "zen"], as: CallInvocation.self),
            CallInvocation(help: false, words: ["github", "zen"]))
    }

    func testEveryOptionOfCallParsesAsArgumentParserParsesIt() throws {
        try assertEveryOptionAgrees(Call.self)
    }

    func testEveryOptionOfCurlParsesAsArgumentParserParsesIt() throws {
        try assertEveryOptionAgrees(Curl.self)
    }

    func testRequestTableListsEveryOptionArgumentParserDeclares() throws {
        try assertTable(RequestInvocation.table, matches: "request")
    }

    func testEveryOptionOfRequestParsesAsArgumentParserParsesIt() throws {
        try assertEveryOptionAgrees(MoyaCommand.Request.self)
    }

    /// `request`'s items are words; an unknown `--name` is no item, left to ArgumentParser, which refuses it.
    func testRequestItemsAgreeAndUnknownOptionsAreDeclined() throws {
        try assertAgreement(
            [
                "web", "POST", "/x", "a=1", "b:=2", "q==3", "X-A:1", "X-B:", "f@file", "-H", "C: 3", "--form", "--auth",
                "none"
            ],
            as: MoyaCommand.Request.self)
        try assertAgreement(["GET", "http://127.0.0.1:9/x", "--query", "k=v", "-v"], as: MoyaCommand.Request.self)
        try assertDeclined(
            [["web", "GET", "/x", "--bogus", "1"], ["--help"], ["--", "web", "GET", "-x"]], as: RequestInvocation.self,
            command: "request", refusals: [["web", "GET", "/x", "--bogus", "1"]: "--bogus"], helpMentions: "--form")
    }

    /// `validate`'s words are files; an unknown `--name` is an unknown option, left to ArgumentParser.
    func testValidateLinesAgreeAndTheRestIsDeclined() throws {
        try assertEveryOptionAgrees(MoyaCommand.Validate.self)
        for line in [
            [], ["a.yaml"], ["a.yaml", "folder", "--targets", "t", "--targets=u", "--no-color", "b.yml"],
            ["--file-root", "/tmp", "x.yaml"], ["ünïcode.yaml", ""]
        ] {
            try assertAgreement(line, as: MoyaCommand.Validate.self)
        }
        let declined: [[String]] = [
            ["--bogus"], ["a.yaml", "--name", "x"], ["-x"], ["--targets"], ["--targets", "-x"], ["--", "-a.yaml"],
            ["-"],
            ["--no-color", "--no-color"], ["--no-color=yes"], ["--file-root", "/nonexistent-moya-folder"], ["--help"],
            ["--version"]
        ]
        try assertDeclined(
            declined, as: ValidateInvocation.self, command: "validate", refusals: [["--bogus"]: "--bogus"],
            helpMentions: "--file-root")
    }

    /// Each option given alone (with what it needs), spelled `--name value` and `--name=value`.
    private func assertEveryOptionAgrees<Command: ParsedDirectly>(_: Command.Type) throws {
        for option in Command.Invocation.table {
            for name in option.names where name != "-h" && name != "--help" {
                var lines: [[String]] = []
                let needed =
                    (Command.self == MoyaCommand.Check.self ? Self.checkCompanions[name] : nil)
                    ?? Self.companions[name] ?? []
                switch option.kind {
                case .flag:
                    lines.append(["github", "zen", name] + needed)
                case .optionalValue:
                    let value = try XCTUnwrap(Self.sampleValues[name], "no sample value for \(name)")
                    lines.append(["github", "zen", name] + needed)
                    lines.append(["github", "zen", "\(name)=\(value)"] + needed)
                case .value, .repeated:
                    let value = try XCTUnwrap(Self.sampleValues[name], "no sample value for \(name)")
                    lines.append(needed + ["github", name, value, "zen"])
                    if name.hasPrefix("--") { lines.append(["github", "zen", "\(name)=\(value)"] + needed) }
                case .words:
                    continue
                }
                for line in lines { try assertAgreement(line, as: Command.self) }
            }
        }
    }

    func testCaseValuesAndOptionsInterleavedAgree() throws {
        try assertAgreement(
            [
                "--stub", "github", "-H", "A: 1", "userProfile", "--user", "octocat", "-i", "-H", "B: 2",
                "--per-page=5", "extra", "--targets", "one", "--targets=two", "-v"
            ], as: Call.self)
        try assertAgreement(["httpbin", "--insecure", "anything", "--name", "x y", "42"], as: Curl.self)
        try assertAgreement(
            ["github", "zen", "-k", "--no-follow", "--retry-all", "--show-secrets", "--no-color", "--force", "--curl"],
            as: Call.self)
        try assertAgreement(["github", "search", "--q=", "--per_page", "1", "ünïcode", "", "a=b"], as: Call.self)
        try assertAgreement(["github", "repoIssues", "--value", "timeout=5", "--value=format=x", "Moya"], as: Call.self)
        try assertAgreement(["-h"], as: Call.self)
        try assertAgreement(["github", "-h"], as: Curl.self)
    }

    /// The direct parser accepts `line` and makes the invocation ArgumentParser's command makes.
    private func assertAgreement<Command: ParsedDirectly>(
        _ line: [String], as _: Command.Type, file: StaticString = #filePath, line number: UInt = #line
    ) throws {
        let direct = try XCTUnwrap(
            DirectParser.parse(line, as: Command.Invocation.self), "direct parser declined \(line)",
            file: file, line: number)
        let reference = try Command.parse(RecordOptions.spelledForArgumentParser(line)).invocation
        XCTAssertEqual(direct, reference, "\(line)", file: file, line: number)
    }

    // MARK: - What is left to ArgumentParser

    func testLinesArgumentParserMustAnswerAreDeclined() {
        let declined: [[String]] = [
            ["github", "zen", "--help"],  // help text comes from ArgumentParser
            ["github", "zen", "--version"],
            ["--experimental-dump-help"],
            ["--generate-completion-script", "bash"],
            ["---completion", "call", "--", "gi"],
            ["github", "zen", "--", "-5"],  // after --, words that look like options
            ["github", "zen", "-"],
            ["github", "zen", "-ik"],  // short flags run together
            ["github", "zen", "-5"],
            ["github", "zen", "--timeout"],  // a missing value
            ["github", "zen", "--timeout", "-1"],  // a value that looks like an option
            ["github", "zen", "--timeout", "soon"],  // not a number
            ["github", "zen", "--format", "xml"],  // not one of the choices
            ["github", "zen", "--retry", "1", "--retry", "2"],  // given twice
            ["github", "zen", "-v", "--verbose"],
            ["github", "zen", "--include=yes"],  // a flag with a value
            ["github", "zen", "--delay", "1"],  // validate(): --delay needs --stub
            ["github", "zen", "--timeout", "1e9"],
            ["github", "zen", "--key", "k.pem"],
            ["github", "zen", "--headers-only", "--keypath", "a"],
            ["github", "zen", "-H", "no colon"],
            ["github", "zen", "--ünicode", "x"],  // not a plain case value name
            ["github", "zen", "--user", "-v"]  // a value, or the -v flag? ArgumentParser says
        ]
        for line in declined {
            XCTAssertNil(DirectParser.parse(line, as: CallInvocation.self), "\(line) should be left to ArgumentParser")
        }
    }

    /// What the direct parser declines still gets ArgumentParser's answer from the binary.
    func testDeclinedLinesStillGetArgumentParsersAnswer() throws {
        let targets = CLIRunner.repositoryRoot.appendingPathComponent("targets").path
        let missing = try CLIRunner.run(["call", "github", "zen", "--stub", "--timeout", "--targets", targets])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.contains("--timeout"), missing.stderr)
        for line in [["--version"], ["call", "github", "zen", "--version"]] {
            let version = try CLIRunner.run(line)
            XCTAssertEqual(version.status, 0, "\(line)")
            XCTAssertEqual(
                version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), MoyaCommand.version, "\(line)")
        }
        let joined = try CLIRunner.run(["call", "github", "zen", "--stub", "-ik", "--targets", targets])
        XCTAssertEqual(joined.status, 0, joined.stderr)
        XCTAssertTrue(joined.stdout.hasPrefix("HTTP/1.1 200"), joined.stdout)
    }
}

/// An ArgumentParser command and the invocation both parsers make of its lines.
protocol ParsedDirectly: ParsableCommand {
    associatedtype Invocation: DirectlyParsable
    /// The invocation the command's `run()` runs.
    var invocation: Invocation { get }
}

extension MoyaCommand.Call: ParsedDirectly {
    var invocation: CallInvocation { CallInvocation(self) }
}

extension MoyaCommand.Request: ParsedDirectly {
    var invocation: RequestInvocation { RequestInvocation(self) }
}

extension MoyaCommand.Curl: ParsedDirectly {
    var invocation: CurlInvocation { CurlInvocation(self) }
}

extension MoyaCommand.Validate: ParsedDirectly {
    var invocation: ValidateInvocation { ValidateInvocation(self) }
}

extension MoyaCommand.List: ParsedDirectly {
    var invocation: ListInvocation { ListInvocation(self) }
}

extension MoyaCommand.Check: ParsedDirectly {
    var invocation: CheckInvocation { CheckInvocation(self) }
}
