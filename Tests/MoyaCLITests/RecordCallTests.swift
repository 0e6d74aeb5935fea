import Foundation
import TestServers
import XCTest

/// `call … --record[=NAME]` through the binary against the loopback server: the live response
/// written into the target file as the case's sample, byte for byte where the file says what, and
/// served back exactly by `--stub`.
final class RecordCallTests: WebTargetTestCase {
    private var original = ""

    override func webTarget(port: UInt16) -> String {
        original = """
            # shop API, by hand  (comments stay)
            api: shop
            baseURL: http://127.0.0.1:\(port)   # loopback
            headers: &common {X-From-File: file}
            auth: {type: bearer, token: "${secret:SHOP_TOKEN}"}
            cases:
              reply:   # the server answers what the values say
                values: [{body: string}, {type: {type: string, default: application/json}}, {status: {type: int, default: 200}}]
                path: /reply
                task: {parameters: {body: "{body}", type: "{type}", status: "{status}"}, encoding: url}
                sample: {json: {old: true}}   # replaced in flow style
              block:
                values: [{body: string}]
                path: /reply
                headers: *common
                task: {parameters: {body: "{body}", type: application/json}, encoding: url}
                sample:
                  status: 200
                  json:
                    old: true
              echo: {path: /anything, sample: {json: {}}}
              fetch: {path: /reply, task: {download: fetched.bin}}
            # after the last case
            validation: successCodes

            """
        return original
    }

    override var extraEnvironment: [String: String] { ["SHOP_TOKEN": "tok-s3cret-value"] }

    private var path: String { folder.url.path + "/targets/web.yaml" }
    private func fileText() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    private func replacing(_ old: String, with new: String) -> String {
        XCTAssertTrue(original.contains(old), old)
        return original.replacingOccurrences(of: old, with: new)
    }

    func testRecordsInFlowStyleAndASecondRecordChangesNoByte() throws {
        let body = #"{"id":7,"name":"{name} ${HOME}","price":2.50,"tags":["a"]}"#
        let result = try run(["call", "shop", "reply", body, "--record"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, body)
        XCTAssertEqual(
            result.stderr, "moya-cli: recorded HTTP 200 as the default sample of shop.reply in targets/web.yaml\n")
        let expected = replacing(
            "sample: {json: {old: true}}   # replaced",
            with:
                #"sample: {status: 200, json: {id: 7, name: "{{name}} $${HOME}}", price: 2.50, tags: [a]}}   # replaced"#
        )
        XCTAssertEqual(try fileText(), expected)

        let again = try run(["call", "shop", "reply", body, "--record"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(
            again.stderr,
            "moya-cli: the default sample of shop.reply in targets/web.yaml already holds this response (HTTP 200); nothing was written\n"
        )
        XCTAssertEqual(try fileText(), expected, "a second record is a no-op")

        let stubbed = try run(["call", "shop", "reply", "x", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, body, "the sample serves what was received: braces stay braces")
        let checked = try run(["check", "shop"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    func testANamedRecordMakesSamplesAndTheNameIsOnlyTakenAfterEquals() throws {
        let named = try run(["call", "shop", "block", #"{"ok":1}"#, "--record=fresh"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(
            named.stderr, "moya-cli: recorded HTTP 200 as sample 'fresh' of shop.block in targets/web.yaml\n")
        let split = replacing(
            "    sample:\n      status: 200\n      json:\n        old: true\n",
            with:
                "    samples:\n      default:\n        status: 200\n        json:\n          old: true\n      fresh:\n        status: 200\n        json: {ok: 1}\n"
        )
        XCTAssertEqual(try fileText(), split)
        // `--record fresh`: GNU's optional value, so `fresh` is the case's value and the default sample is recorded.
        let plain = try run(["call", "shop", "block", "--record", "fresh"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            try fileText(),
            split.replacingOccurrences(
                of: "      default:\n        status: 200\n        json:\n          old: true\n",
                with:
                    "      default:\n        status: 200\n        headers: {Content-Type: application/json}\n        text: fresh\n"
            ))
        let stubbed = try run(["call", "shop", "block", "x", "--stub", "--sample", "fresh"])
        XCTAssertEqual(stubbed.stdout, #"{"ok":1}"#)
    }

    func testAFailedValidationIsRecordedOnlyWithRecordFailures() throws {
        let refused = try run(["call", "shop", "reply", "{}", "application/json", "404", "--record"])
        XCTAssertEqual(refused.status, 4)
        XCTAssertEqual(refused.stderr, "moya-cli: error: shop.reply: HTTP 404 failed the case's validation\n")
        XCTAssertEqual(try fileText(), original)
        let kept = try run(
            ["call", "shop", "reply", "{}", "application/json", "404", "--record=missing", "--record-failures"])
        XCTAssertEqual(kept.status, 4)
        XCTAssertEqual(
            kept.stderr,
            "moya-cli: recorded HTTP 404 as sample 'missing' of shop.reply in targets/web.yaml\nmoya-cli: error: shop.reply: HTTP 404 failed the case's validation\n"
        )
        XCTAssertEqual(
            try fileText(),
            replacing(
                "    sample: {json: {old: true}}   # replaced in flow style\n",
                with:
                    "    samples:\n      default: {json: {old: true}}   # replaced in flow style\n      missing: {status: 404, json: {}}\n"
            ))
    }

    func testSecretsAndSensitiveHeadersAreNeverRecorded() throws {
        let echoed = try run(["call", "shop", "echo", "--record"])
        XCTAssertEqual(echoed.status, 0, echoed.stderr)
        XCTAssertTrue(echoed.stdout.contains("tok-s3cret-value"), "the server echoed the token")
        let text = try fileText()
        XCTAssertFalse(text.contains("tok-s3cret-value"), text)
        XCTAssertTrue(text.contains(#"[Authorization, "Bearer <redacted>"]"#), text)

        let cookie = try run([
            "call", "shop", "reply", "ok", "text/plain; charset=utf-8", "--record=cookie", "--record-headers",
            "--query", "header=Set-Cookie:sid=tok-s3cret-value", "--query", "header=X-Rate:{5}",
            "--query", "header=WWW-Authenticate:Basic", "--query", "header=X-Echo:Bearer tok-s3cret-value"
        ])
        XCTAssertEqual(cookie.status, 0, cookie.stderr)
        XCTAssertEqual(
            try fileText(),
            text.replacingOccurrences(
                of: "  echo: {path: /anything, sample: {json: {}}}\n",
                with: "  echo: {path: /anything, sample: {json: {}}}\n"
            ).replacingOccurrences(
                of: "    sample: {json: {old: true}}   # replaced in flow style\n",
                with:
                    "    samples:\n      default: {json: {old: true}}   # replaced in flow style\n      cookie: {status: 200, headers: {Content-Type: \"text/plain; charset=utf-8\", X-Rate: \"{{5}}\", X-Echo: \"Bearer <redacted>\"}, text: ok}\n"
            ))
    }

    func testHostileBodiesRoundTripThroughTheSample() throws {
        let hostile =
            "\u{1B}]0;title\u{07}\u{1B}[31mred\nkey: value\n- item\n&anchor *alias {name} }{ ${HOME} $${x} \"q\" 'q' #c\n\t\r\n"
        let result = try run(["call", "shop", "reply", hostile, "text/plain", "--record"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try fileText()
        XCTAssertFalse(text.utf8.contains(0x1B), "escapes are written as YAML escapes")
        let stubbed = try run(["call", "shop", "reply", "x", "--stub"])
        XCTAssertEqual(stubbed.stdout, hostile)
        XCTAssertEqual(try run(["validate", "targets/web.yaml"]).status, 0)
    }

    func testALargeBodyOrOneNotUTF8GoesToAFileBesideTheTargetFile() throws {
        let large = try run(
            ["call", "shop", "reply", "x", "text/plain", "--query", "repeat=70000", "--record"])
        XCTAssertEqual(large.status, 0, large.stderr)
        XCTAssertEqual(
            large.stderr,
            "moya-cli: recorded HTTP 200 as the default sample of shop.reply in targets/web.yaml, its body in samples/shop/reply.txt\n"
        )
        XCTAssertEqual(
            try fileText(),
            replacing(
                "sample: {json: {old: true}}",
                with: "sample: {status: 200, headers: {Content-Type: text/plain}, file: samples/shop/reply.txt}"))
        let written = try Data(contentsOf: folder.url.appendingPathComponent("targets/samples/shop/reply.txt"))
        XCTAssertEqual(written, Data(String(repeating: "x", count: 70_000).utf8))
        let stubbed = try run(["call", "shop", "reply", "x", "--stub"])
        XCTAssertEqual(stubbed.stdoutData, written)

        let binary = try run(["call", "shop", "reply", "", "image/x-raw", "--query", "hex=ff00fe", "--record=raw"])
        XCTAssertEqual(binary.status, 0, binary.stderr)
        XCTAssertEqual(
            try Data(contentsOf: folder.url.appendingPathComponent("targets/samples/shop/reply.raw.bin")),
            Data([0xFF, 0x00, 0xFE]))
        XCTAssertTrue(
            try fileText().contains(
                "      raw: {status: 200, headers: {Content-Type: image/x-raw}, file: samples/shop/reply.raw.bin}\n"))
        let stubbedRaw = try run(["call", "shop", "reply", "x", "--stub", "--sample", "raw"])
        XCTAssertEqual(stubbedRaw.stdoutData, Data([0xFF, 0x00, 0xFE]))
    }

    func testASymbolicLinkOrFIFOAtTheDestinationIsRefused() throws {
        let outside = try makeTemporaryFolder()
        XCTAssertEqual(symlink(outside.path, folder.url.path + "/targets/samples"), 0)
        let linked = try run(["call", "shop", "reply", "x", "text/plain", "--query", "repeat=70000", "--record"])
        XCTAssertEqual(linked.status, 74)
        XCTAssertEqual(
            linked.stderr,
            "moya-cli: error: cannot record the sample of targets/web.yaml in samples/shop/reply.txt: targets/samples is not a folder (a symbolic link is not followed: the file stays inside the target file's folder)\n"
        )
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), [])
        XCTAssertEqual(try fileText(), original)
        XCTAssertEqual(unlink(folder.url.path + "/targets/samples"), 0)
        try FileManager.default.createDirectory(
            atPath: folder.url.path + "/targets/samples/shop", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(folder.url.path + "/targets/samples/shop/reply.txt", 0o644), 0)
        let fifo = try run(["call", "shop", "reply", "x", "text/plain", "--query", "repeat=70000", "--record"])
        XCTAssertEqual(fifo.status, 74)
        XCTAssertTrue(fifo.stderr.contains("it is not a regular file"), fifo.stderr)
        XCTAssertEqual(try fileText(), original)
    }

    func testAReadOnlyTargetFileAndRecordWithStubOrAllAreRefused() throws {
        XCTAssertEqual(chmod(path, 0o444), 0)
        let readOnly = try run(["call", "shop", "reply", "{}", "--record"])
        XCTAssertEqual(readOnly.status, 74)
        XCTAssertEqual(
            readOnly.stderr, "moya-cli: error: cannot record a sample in targets/web.yaml: it is read-only\n")
        XCTAssertEqual(try fileText(), original)
        let stub = try run(["call", "shop", "reply", "{}", "--stub", "--record"])
        XCTAssertEqual(stub.status, 64)
        XCTAssertTrue(stub.stderr.contains("--record records a live response; it cannot go with --stub"), stub.stderr)
        let all = try run(["call", "shop", "reply", "{}", "--all", "--record=x"])
        XCTAssertEqual(all.status, 64)
        XCTAssertTrue(all.stderr.contains("--record records one response; it cannot go with --all"), all.stderr)
        let empty = try run(["call", "shop", "reply", "{}", "--record="])
        XCTAssertEqual(empty.status, 64)
        XCTAssertTrue(
            empty.stderr.hasPrefix("moya-cli: error: --record= needs a sample name after '='\n"), empty.stderr)
        let request = try run(["request", "shop", "GET", "/reply", "--record"])
        XCTAssertEqual(request.status, 64, "request has --save-as, not --record")
        XCTAssertTrue(request.stderr.hasPrefix("moya-cli: error: Unknown option '--record'"), request.stderr)
        let sent = server.receivedRequests.count
        let download = try run(["call", "shop", "fetch", "--record"])
        XCTAssertEqual(download.status, 64)
        XCTAssertEqual(
            download.stderr,
            "moya-cli: error: --record cannot record a download case: its body goes to a file, not a sample\n")
        XCTAssertEqual(server.receivedRequests.count, sent, "refused before anything is sent")
        let alone = try run(["call", "shop", "reply", "{}", "--record-headers"])
        XCTAssertEqual(alone.status, 64)
        XCTAssertTrue(alone.stderr.contains("--record-headers needs --record"), alone.stderr)
    }

    func testBodiesTheFileCannotHoldGoToFilesAndBadNamesAndHugeBodiesAreRefused() throws {
        let deep = String(repeating: "[", count: 40) + "1" + String(repeating: "]", count: 40)
        let nested = try run(["call", "shop", "reply", deep, "--record=deep"])
        XCTAssertEqual(nested.status, 0, nested.stderr)
        XCTAssertTrue(nested.stderr.hasSuffix(", its body in samples/shop/reply.deep.json\n"), nested.stderr)
        let longKey = #"{""# + String(repeating: "k", count: 1500) + #"":1}"#
        let keyed = try run(["call", "shop", "reply", longKey, "--record=long"])
        XCTAssertEqual(keyed.status, 0, keyed.stderr)
        XCTAssertTrue(keyed.stderr.hasSuffix(", its body in samples/shop/reply.long.json\n"), keyed.stderr)
        let twice = try run(["call", "shop", "reply", #"{"a":1,"a":2}"#, "--record=twice"])
        XCTAssertEqual(twice.status, 0, twice.stderr)
        XCTAssertTrue(twice.stderr.hasSuffix(", its body in samples/shop/reply.twice.json\n"), twice.stderr)
        let notUTF8 = try run(["call", "shop", "reply", "", "application/json", "--query", "hex=7bff7d", "--record=bad"]
        )
        XCTAssertEqual(notUTF8.status, 0, notUTF8.stderr)
        XCTAssertTrue(notUTF8.stderr.hasSuffix(", its body in samples/shop/reply.bad.bin\n"), notUTF8.stderr)
        let nul = try run(["call", "shop", "reply", "", "text/plain", "--query", "hex=00410a", "--record=nul"])
        XCTAssertEqual(nul.status, 0, nul.stderr)
        let withNul = try fileText()
        XCTAssertTrue(
            withNul.contains(#"nul: {status: 200, headers: {Content-Type: text/plain}, text: "\x00A\n"}"#), withNul)
        for name in ["deep", "long", "twice", "bad", "nul"] {
            let served = try run(["call", "shop", "reply", "x", "--stub", "--sample", name])
            XCTAssertEqual(served.status, 0, served.stderr)
        }
        XCTAssertEqual(
            try run(["call", "shop", "reply", "x", "--stub", "--sample", "nul"]).stdoutData, Data([0, 0x41, 0x0A]))
        XCTAssertEqual(try run(["validate", "targets/web.yaml"]).status, 0)

        let before = try fileText()
        let badName = try run(["call", "shop", "reply", "{}", "--record=../x"])
        XCTAssertEqual(badName.status, 64)
        XCTAssertEqual(
            badName.stderr, "moya-cli: error: '../x' is not a valid sample name: use letters, digits, '_' and '-'\n")
        let huge = try run([
            "call", "shop", "reply", "0123456789abcdef", "text/plain", "--query", "repeat=2200000", "--record",
            "--output", "huge.txt", "--max-body-size", "64M"
        ])
        XCTAssertEqual(huge.status, 74)
        XCTAssertEqual(
            huge.stderr,
            "moya-cli: wrote 35200000 bytes to huge.txt\nmoya-cli: error: cannot record the response of shop.reply: its body (35200000 bytes) is larger than 33554432 bytes; nothing was recorded\n"
        )
        XCTAssertEqual(try fileText(), before)
    }

    func testABodyFileOutsideTheFileRootIsRefused() throws {
        let root = try makeTemporaryFolder()
        let outside = try run([
            "call", "shop", "reply", "x", "text/plain", "--query", "repeat=70000", "--record", "--file-root", root.path
        ])
        XCTAssertEqual(outside.status, 74)
        XCTAssertEqual(
            outside.stderr,
            "moya-cli: error: cannot record the sample of targets/web.yaml in samples/shop/reply.txt: it would be outside the file root \(root.path) (--file-root), where the file could not read it\n"
        )
        XCTAssertEqual(try fileText(), original)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.path + "/targets/samples"))
        let inside = try run([
            "call", "shop", "reply", "x", "text/plain", "--query", "repeat=70000", "--record", "--file-root",
            folder.url.path
        ])
        XCTAssertEqual(inside.status, 0, inside.stderr)
        XCTAssertEqual(
            try run(["call", "shop", "reply", "x", "--stub", "--file-root", folder.url.path]).stdoutData.count, 70_000)
    }
}
