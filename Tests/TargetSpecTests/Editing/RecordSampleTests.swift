import Foundation
import TargetModel
import TargetSpec
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Recording a response as a case's sample in a real file: only the sample's node changes, in the
/// style the file uses there; every refusal leaves the file as it was.
final class RecordSampleTests: XCTestCase {
    /// Comments, an anchor and an alias, flow and block samples, a named-samples map.
    static let original = """
        # shop API  (comments stay)
        api: shop
        baseURL: https://example.com
        headers: &common {Accept: application/json}   # shared
        cases:
          flowCase:
            path: /flow   # the flow sample below is replaced in flow style
            sample: {json: {old: true}}
          blockCase:
            path: /block
            sample:
              status: 200
              json:
                old: true   # this comment goes with the old sample
          # a comment between cases
          named:
            path: /named
            headers: *common
            samples:
              ok: {json: [1, 2]}
              missing: {status: 404, json: {message: gone}}
          bare:
            path: /bare
        # the end

        """

    private let json = RecordedSample(
        status: 200, headers: [.init(name: "Content-Type", value: "application/json")],
        body: Array(#"{"id":7,"price":2.50,"name":"{name} ${HOME}","tags":["a"]}"#.utf8))

    private func file() throws -> String {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/shop.yaml"
        try SpecTest.write(Self.original, to: path)
        return path
    }

    private func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    private func replacing(_ old: String, with new: String) -> String {
        Self.original.replacingOccurrences(of: old, with: new)
    }

    func testAFlowSampleIsReplacedInFlowStyleAndEveryOtherByteKept() throws {
        let path = try file()
        let outcome = try SampleRecorder.record(
            [.init(caseName: "flowCase", sample: json)], policy: .init(), toFileAt: path)
        XCTAssertFalse(outcome.isUnchanged)
        XCTAssertEqual(
            try contents(path),
            replacing(
                "sample: {json: {old: true}}",
                with:
                    #"sample: {status: 200, json: {id: 7, price: 2.50, name: "{{name}} $${HOME}}", tags: [a]}}"#))
        let again = try SampleRecorder.record(
            [.init(caseName: "flowCase", sample: json)], policy: .init(), toFileAt: path)
        XCTAssertTrue(again.isUnchanged, "a second record of the same response changes nothing")
    }

    func testABlockSampleIsReplacedInBlockStyleAtItsIndentation() throws {
        let path = try file()
        _ = try SampleRecorder.record([.init(caseName: "blockCase", sample: json)], policy: .init(), toFileAt: path)
        XCTAssertEqual(
            try contents(path),
            replacing(
                "      status: 200\n      json:\n        old: true   # this comment goes with the old sample\n",
                with:
                    "      status: 200\n      json: {id: 7, price: 2.50, name: \"{{name}} $${HOME}}\", tags: [a]}   # this comment goes with the old sample\n"
            ))
    }

    func testANamedSampleIsReplacedOrAddedAfterTheOthers() throws {
        let path = try file()
        let missing = RecordedSample(status: 404, body: Array("not here".utf8))
        _ = try SampleRecorder.record(
            [
                .init(caseName: "named", sampleName: "missing", sample: missing),
                .init(caseName: "named", sampleName: "new-one", sample: missing)
            ],
            policy: .init(), toFileAt: path)
        XCTAssertEqual(
            try contents(path),
            replacing(
                "      missing: {status: 404, json: {message: gone}}\n",
                with: "      missing: {status: 404, text: not here}\n      new-one: {status: 404, text: not here}\n"))
    }

    func testALoneSampleBecomesSamplesWithTheOldOneFirstAsDefault() throws {
        let path = try file()
        _ = try SampleRecorder.record(
            [.init(caseName: "blockCase", sampleName: "fresh", sample: RecordedSample(status: 204))],
            policy: .init(), toFileAt: path)
        XCTAssertEqual(
            try contents(path),
            replacing(
                "    sample:\n      status: 200\n      json:\n        old: true   # this comment goes with the old sample\n",
                with:
                    "    samples:\n      default:\n        status: 200\n        json:\n          old: true   # this comment goes with the old sample\n      fresh:\n        status: 204\n"
            ))
        let loaded = TargetFileLoader.load(path: path)
        XCTAssertFalse(loaded.hasErrors, loaded.renderedDiagnostics())
        XCTAssertEqual(loaded.api?.cases.first { $0.name == "blockCase" }?.samples.map(\.name), ["default", "fresh"])
    }

    func testACaseWithoutASampleGetsOneAsItsLastMember() throws {
        let path = try file()
        _ = try SampleRecorder.record(
            [.init(caseName: "bare", sample: RecordedSample(status: 200, body: Array("hi".utf8)))],
            policy: .init(), toFileAt: path)
        XCTAssertEqual(
            try contents(path),
            replacing("    path: /bare\n", with: "    path: /bare\n    sample: {status: 200, text: hi}\n"))
    }

    func testCRLFAndAMissingFinalNewlineAndAnAnchorAreKept() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/a.yaml"
        let text =
            "api: a\r\nbaseURL: https://example.com\r\ncases:\r\n  one:\r\n    path: /one\r\n    sample: &s {text: old}\r\n  two:\r\n    path: /two\r\n    sample: *s"
        try SpecTest.write(text, to: path)
        _ = try SampleRecorder.record(
            [.init(caseName: "one", sample: RecordedSample(status: 201, body: Array("new".utf8)))],
            policy: .init(), toFileAt: path)
        XCTAssertEqual(
            try contents(path), text.replacingOccurrences(of: "{text: old}", with: "{status: 201, text: new}"))
        _ = try SampleRecorder.record(
            [.init(caseName: "two", sample: RecordedSample(status: 200))], policy: .init(), toFileAt: path)
        XCTAssertTrue(try contents(path).hasSuffix("    path: /two\r\n    sample: {status: 200}"))
    }

    func testSecretsAndSensitiveHeadersAreNeverWritten() throws {
        let path = try file()
        let response = RecordedSample(
            status: 200,
            headers: [
                .init(name: "Content-Type", value: "text/plain"), .init(name: "Set-Cookie", value: "sid=s3cr3t-token"),
                .init(name: "X-Echo", value: "Bearer s3cr3t-token"), .init(name: "WWW-Authenticate", value: "Basic"),
                .init(name: "Proxy-Status", value: "x"), .init(name: "X-Count", value: "1"),
                .init(name: "X-Count", value: "2"), .init(name: "Date", value: "today")
            ],
            body: Array("token=s3cr3t-token\n".utf8))
        _ = try SampleRecorder.record(
            [.init(caseName: "bare", sample: response)],
            policy: .init(recordsHeaders: true, secretValues: ["s3cr3t-token"]), toFileAt: path)
        let written = try contents(path)
        XCTAssertFalse(written.contains("s3cr3t"))
        XCTAssertEqual(
            written,
            replacing(
                "    path: /bare\n",
                with:
                    "    path: /bare\n    sample:\n      status: 200\n      headers: {Content-Type: text/plain, X-Echo: \"Bearer <redacted>\", X-Count: \"1, 2\"}\n      text: \"token=<redacted>\\n\"\n"
            ))
    }

    func testALargeOrBinaryBodyGoesToAFileBesideTheTargetFile() throws {
        let path = try file()
        let folder = (path as NSString).deletingLastPathComponent
        let large = "[" + Array(repeating: "\"{x}\"", count: 20_000).joined(separator: ",") + "]"
        let response = RecordedSample(
            status: 200, headers: [.init(name: "Content-Type", value: "application/json")], body: Array(large.utf8))
        let outcome = try SampleRecorder.record(
            [
                .init(caseName: "named", sampleName: "ok", sample: response),
                .init(caseName: "bare", sample: RecordedSample(status: 200, body: [0xFF, 0x00, 0xFE]))
            ],
            policy: .init(), toFileAt: path)
        XCTAssertEqual(outcome.bodyFile, "samples/shop/bare.bin")
        XCTAssertEqual(
            try contents(path),
            replacing(
                "      ok: {json: [1, 2]}\n",
                with:
                    "      ok: {status: 200, headers: {Content-Type: application/json}, file: samples/shop/named.ok.json}\n"
            ).replacingOccurrences(
                of: "    path: /bare\n",
                with: "    path: /bare\n    sample: {status: 200, file: samples/shop/bare.bin}\n"))
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/samples/shop/named.ok.json")), Data(large.utf8))
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/samples/shop/bare.bin")), Data([0xFF, 0x00, 0xFE]))
        XCTAssertTrue(
            try SampleRecorder.record(
                [.init(caseName: "named", sampleName: "ok", sample: response)], policy: .init(), toFileAt: path
            ).isUnchanged)
    }

    func testASymbolicLinkOrFIFOOnTheWayIsRefusedAndNothingWritten() throws {
        let path = try file()
        let folder = (path as NSString).deletingLastPathComponent
        let outside = try SpecTest.temporaryFolder(self)
        XCTAssertEqual(symlink(outside, folder + "/samples"), 0)
        let binary = RecordedSample(status: 200, body: [0xFF])
        XCTAssertThrowsError(
            try SampleRecorder.record([.init(caseName: "bare", sample: binary)], policy: .init(), toFileAt: path)
        ) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind, .cannotWrite)
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "cannot record the sample of \(path) in samples/shop/bare.bin: \(folder)/samples is not a folder (a symbolic link is not followed: the file stays inside the target file's folder)"
            )
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
        XCTAssertEqual(unlink(folder + "/samples"), 0)
        // A file where a folder goes (as a folder that cannot be written, for root too).
        try SpecTest.write("not a folder", to: folder + "/samples")
        XCTAssertThrowsError(
            try SampleRecorder.record([.init(caseName: "bare", sample: binary)], policy: .init(), toFileAt: path)
        ) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 74)
            XCTAssertTrue((error as? TargetFileEditError)?.message.contains("samples is not a folder") == true)
        }
        XCTAssertEqual(unlink(folder + "/samples"), 0)
        XCTAssertEqual(mkdir(folder + "/samples", 0o755), 0)
        XCTAssertEqual(mkdir(folder + "/samples/shop", 0o755), 0)
        XCTAssertEqual(mkfifo(folder + "/samples/shop/bare.bin", 0o644), 0)
        XCTAssertThrowsError(
            try SampleRecorder.record([.init(caseName: "bare", sample: binary)], policy: .init(), toFileAt: path)
        ) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind, .cannotWrite)
        }
        XCTAssertEqual(try contents(path), Self.original)
    }

    func testAFileChangedBetweenReadAndWriteIsNotOverwritten() throws {
        let path = try file()
        let snapshot = try TargetFileWriter.read(path, purpose: "record a sample in")
        let changed = Self.original.replacingOccurrences(of: "/bare", with: "/BARE")
        try changed.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try TargetFileWriter.replace(snapshot, with: Array("api: x\n".utf8))) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 74)
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "cannot record a sample in \(path): it changed since it was read (another program wrote it); nothing was written: run the command again"
            )
        }
        XCTAssertEqual(try contents(path), changed)
    }

    func testAByteOrderMarkAndAnInvalidSampleNameAndAMissingCase() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/b.yaml"
        let text = "\u{FEFF}api: b\nbaseURL: https://example.com\ncases:\n  one: {path: /one, sample: {text: old}}\n"
        try SpecTest.write(text, to: path)
        _ = try SampleRecorder.record(
            [.init(caseName: "one", sampleName: "two", sample: RecordedSample(status: 200))], policy: .init(),
            toFileAt: path)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path)),
            Data(
                text.replacingOccurrences(
                    of: "sample: {text: old}}", with: "samples: {default: {text: old}, two: {status: 200}}}"
                ).utf8))
        for (caseName, name, message) in [
            ("one", "a b", "'a b' is not a valid sample name: use letters, digits, '_' and '-'"),
            ("zero", nil, "\(path) has no case 'zero'")
        ] {
            XCTAssertThrowsError(
                try SampleRecorder.record(
                    [.init(caseName: caseName, sampleName: name, sample: RecordedSample(status: 200))], policy: .init(),
                    toFileAt: path)
            ) { error in
                XCTAssertEqual((error as? TargetFileEditError)?.kind, .usage)
                XCTAssertEqual((error as? TargetFileEditError)?.message, message)
            }
        }
    }

    func testABlockScalarAnAnchoredBlockAndABlockNamedEntryAreReplacedInPlace() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/c.yaml"
        let text = """
            api: c
            baseURL: https://example.com
            cases:
              scalar:
                path: /s
                sample:
                  text: |
                    line one
                    line two

                # kept after the block scalar
              anchored:
                path: /a
                sample: &shared
                  status: 201
                  text: old
              named:
                path: /n
                samples:
                  ok:
                    text: first
                  later:
                    text: second   # stays
            """
        try SpecTest.write(text, to: path)
        let response = RecordedSample(status: 200, body: Array("new\n".utf8))
        _ = try SampleRecorder.record(
            [
                .init(caseName: "scalar", sample: response), .init(caseName: "anchored", sample: response),
                .init(caseName: "named", sampleName: "later", sample: response)
            ],
            policy: .init(), toFileAt: path)
        XCTAssertEqual(
            try contents(path),
            text.replacingOccurrences(
                of: "      text: |\n        line one\n        line two\n",
                with: "      status: 200\n      text: \"new\\n\"\n"
            ).replacingOccurrences(
                of: "    sample: &shared\n      status: 201\n      text: old\n",
                with: "    sample: &shared\n      status: 200\n      text: \"new\\n\"\n"
            ).replacingOccurrences(
                of: "        text: second   # stays",
                with: "        status: 200\n        text: \"new\\n\"   # stays"))
    }

    func testAFlowCaseGetsItsSampleInsideItsBraces() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/d.yaml"
        let text = "api: d\nbaseURL: https://example.com\ncases:\n  one: {path: /one}   # flow\n  two: {path: /two}\n"
        try SpecTest.write(text, to: path)
        _ = try SampleRecorder.record(
            [
                .init(caseName: "one", sample: RecordedSample(status: 200, body: Array("a".utf8))),
                .init(caseName: "two", sampleName: "x", sample: RecordedSample(status: 500))
            ],
            policy: .init(), toFileAt: path)
        XCTAssertEqual(
            try contents(path),
            "api: d\nbaseURL: https://example.com\ncases:\n  one: {path: /one, sample: {status: 200, text: a}}   # flow\n  two: {path: /two, samples: {x: {status: 500}}}\n"
        )
    }
}
