import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 47 (items 7 and 9): where connections go and how — curl's `--resolve`, `--connect-to`,
/// an environment's `resolve:`, `-4`/`-6`, `--interface`, `--limit-rate`, the TLS versions and
/// ciphers, `--path-as-is`, `--compressed` — through the binary, on `request`, `call`, `check`
/// and `curl`.
final class ConnectionOptionsTests: XCTestCase {
    private func tlsServer() throws -> TLSTestServer {
        do {
            return try TLSTestServer()
        } catch let error as TLSTestServer.StartError {
            throw XCTSkip("no TLS test server: \(error.description)")
        }
    }

    /// A name no resolver knows, in the server's certificate: reached only through the pins.
    func testResolveAndConnectToReachAPinnedNameWithTLSVerifiedForIt() throws {
        let server = try tlsServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let url = "https://api.moya.test:\(server.port)/"
        let cacert = ["--cacert", server.certificateAuthorityFile]
        let pinned = try sandbox.run(
            ["request", "GET", url, "--resolve", "api.moya.test:\(server.port):127.0.0.1"] + cacert)
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        XCTAssertTrue(pinned.stdout.contains("s_server"), pinned.stdout)
        let connected = try sandbox.run(
            ["request", "GET", url, "--connect-to", "api.moya.test:\(server.port):127.0.0.1:\(server.port)"] + cacert)
        XCTAssertEqual(connected.status, 0, connected.stderr)
        // Unpinned, the name does not resolve; pinned under a name the certificate lacks, TLS
        // refuses it: the pin moves the connection, never the verification.
        let unpinned = try sandbox.run(["request", "GET", url] + cacert)
        XCTAssertEqual(unpinned.status, 1, unpinned.stderr)
        let otherName = try sandbox.run(
            [
                "request", "GET", "https://other.moya.test:\(server.port)/", "--resolve",
                "other.moya.test:\(server.port):127.0.0.1"
            ] + cacert)
        XCTAssertNotEqual(otherName.status, 0, otherName.stderr)
        XCTAssertTrue(otherName.stderr.lowercased().contains("certificate"), otherName.stderr)
    }

    func testAnEnvironmentsResolveSendsCheckToOneNode() throws {
        let server = try tlsServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.write(
            "targets/nodes.yaml",
            """
            api: nodes
            baseURL: https://api.moya.test:\(server.port)
            environments:
              node3:
                resolve: ["api.moya.test:\(server.port):127.0.0.1"]
            cases:
              status: {path: /, sample: {text: ok}}

            """)
        let cacert = ["--cacert", server.certificateAuthorityFile]
        let check = try sandbox.run(["check", "nodes", "--live", "--env", "node3"] + cacert)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let call = try sandbox.run(["call", "nodes", "status", "--env", "node3"] + cacert)
        XCTAssertEqual(call.status, 0, call.stderr)
        XCTAssertNotEqual(try sandbox.run(["call", "nodes", "status"] + cacert).status, 0, "no pin without --env")
        let curl = try sandbox.run(["curl", "nodes", "status", "--env", "node3"])
        XCTAssertTrue(curl.stdout.contains("--resolve 'api.moya.test:\(server.port):127.0.0.1'"), curl.stdout)

        // A file pins only its own host, to addresses.
        for (entry, problem) in [
            ("evil.test:443:127.0.0.1", "names the host 'evil.test'; an environment pins only its base URL's host"),
            ("api.moya.test:443:example.com", "has an address that is not an IPv4 or IPv6 address"),
            ("api.moya.test:x:127.0.0.1", "has no port from 1 to 65535")
        ] {
            try sandbox.write(
                "targets/nodes.yaml",
                "baseURL: https://api.moya.test\nenvironments:\n  n: {resolve: [\"\(entry)\"]}\ncases:\n  s: {path: /}\n"
            )
            let validate = try sandbox.run(["validate", "targets/nodes.yaml"])
            XCTAssertEqual(validate.status, 65, entry)
            XCTAssertTrue(
                validate.stderr.contains("targets/nodes.yaml:3:17: error: resolve entry '\(entry)' \(problem)"),
                validate.stderr)
        }
    }

    func testAddressFamilyInterfacePathAsIsAndTheTLSRange() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let url = "http://127.0.0.1:\(server.port)"
        XCTAssertEqual(try sandbox.run(["request", "GET", url + "/get", "-4"]).status, 0)
        XCTAssertNotEqual(try sandbox.run(["request", "GET", url + "/get", "-6"]).status, 0, "an IPv4 address under -6")
        XCTAssertEqual(try sandbox.run(["request", "GET", url + "/get", "--interface", "lo"]).status, 0)
        XCTAssertEqual(try sandbox.run(["request", "GET", url + "/get", "--interface", "moya-none0"]).status, 1)
        XCTAssertEqual(try sandbox.run(["request", "GET", url + "/anything/a/../b", "--path-as-is"]).status, 0)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/a/../b")
        XCTAssertEqual(try sandbox.run(["request", "GET", url + "/anything/c/../d"]).status, 0)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/d")
        XCTAssertEqual(
            try sandbox.run(["request", "GET", url + "/get", "--compressed", "--limit-rate", "1M"]).status, 0)
        let count = server.receivedRequests.count

        for (arguments, message) in [
            (["--tls-min", "1.4"], "--tls-min '1.4': give 1.0, 1.1, 1.2 or 1.3"),
            (["--tlsv1.3", "--tls-max", "1.2"], "--tls-max 1.2 is older than --tls-min 1.3"),
            (["-4", "-6"], "-4 resolves to IPv4 only and -6 to IPv6 only; give one"),
            (["--resolve", "h:1"], "--resolve 'h:1' is not HOST:PORT:ADDRESS[,ADDRESS...]"),
            (["--connect-to", "a:b:c:d"], "--connect-to 'a:b:c:d' has a port that is not a number from 1 to 65535"),
            (["--limit-rate", "0"], "The value '0' is invalid for '--limit-rate <speed>'")
        ] {
            let refused = try sandbox.run(["request", "GET", url + "/get"] + arguments)
            XCTAssertEqual(refused.status, 64, "\(arguments)")
            XCTAssertTrue(refused.stderr.hasPrefix("moya-cli: error: \(message)\n"), refused.stderr)
        }
        XCTAssertEqual(server.receivedRequests.count, count, "nothing sent for a refused option")

        // TLS 1.2 at most against the TLS server, 1.3 at least: both verified and answered.
        let tls = try tlsServer()
        defer { tls.stop() }
        for range in [["--tls-max", "1.2"], ["--tlsv1.3"], ["--tlsv1.2", "--ciphers", "ECDHE-ECDSA-AES128-GCM-SHA256"]]
        {
            let answered = try sandbox.run(
                ["request", "GET", "https://127.0.0.1:\(tls.port)/", "--cacert", tls.certificateAuthorityFile] + range)
            XCTAssertEqual(answered.status, 0, "\(range): \(answered.stderr)")
        }
        let none = try sandbox.run(
            [
                "request", "GET", "https://127.0.0.1:\(tls.port)/", "--cacert", tls.certificateAuthorityFile,
                "--tls-max",
                "1.2", "--ciphers", "DHE-RSA-AES128-SHA"
            ])
        XCTAssertNotEqual(none.status, 0, "no cipher in common")
    }

    /// `moya-cli curl` prints what is sent, as curl spells it.
    func testCurlPrintsEachOptionAsCurlSpellsIt() throws {
        let sandbox = try Sandbox()
        try sandbox.write("targets/web.yaml", "baseURL: https://api.example.com\ncases:\n  zen: {path: /zen}\n")
        let printed = try sandbox.run([
            "curl", "web", "zen", "--resolve", "api.example.com:443:[::1]", "--connect-to", "::127.0.0.1:8443", "-6",
            "--interface", "eth0", "--limit-rate", "100K", "--tlsv1.2", "--tls-max", "1.3", "--ciphers", "A:B",
            "--tls13-ciphers", "TLS_AES_128_GCM_SHA256", "--path-as-is", "--compressed"
        ])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(
            printed.stdout.contains(
                "--resolve 'api.example.com:443:[::1]' --connect-to '::127.0.0.1:8443' -6 --interface 'eth0' --limit-rate 102400 --tlsv1.2 --tls-max 1.3 --ciphers 'A:B' --tls13-ciphers 'TLS_AES_128_GCM_SHA256' --path-as-is"
            ), printed.stdout)
    }
}

/// Issue 47 (item 9): data piped to `request` that nothing reads gets a note, never silence.
final class IgnoredInputTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        "baseURL: http://127.0.0.1:\(port)\ncases:\n  zen: {path: /zen, sample: ok}\n"
    }

    func testPipedDataNothingReadsGetsANote() throws {
        let note =
            "moya-cli: note: standard input holds data, which request does not send; give --data - (or --json -) to send it as the body\n"
        let url = "http://127.0.0.1:\(server.port)/anything"
        let ignored = try run(["request", "GET", url], stdin: Data("{\"a\": 1}".utf8))
        XCTAssertEqual(ignored.status, 0, ignored.stderr)
        XCTAssertTrue(ignored.stderr.hasPrefix(note), ignored.stderr)
        XCTAssertEqual(server.receivedRequests.last?.body.isEmpty, true, "nothing of it sent")
        let read = try run(["request", "POST", url, "--json", "-"], stdin: Data("{\"a\": 1}".utf8))
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertFalse(read.stderr.contains("note:"), read.stderr)
        XCTAssertEqual(server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, "{\"a\": 1}")
        let empty = try run(["request", "GET", url], stdin: Data())
        XCTAssertFalse(empty.stderr.contains("note:"), empty.stderr)
    }
}

/// Issue 47 (item 9): `--pretty` forces or turns off formatting, `--sorted` sorts a formatted
/// body's keys, as xh's and HTTPie's.
final class PrettyOutputTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        "baseURL: http://127.0.0.1:\(port)\ncases:\n  zen: {path: /zen, sample: ok}\n"
    }

    func testPrettyFormatsOnAPipeAndSortedSortsKeys() throws {
        let url = "http://127.0.0.1:\(server.port)/anything?b=2&a=1"
        let raw = try run(["request", "GET", url])
        XCTAssertEqual(raw.status, 0, raw.stderr)
        XCTAssertFalse(raw.stdout.contains("\n  "), "a pipe gets the body as it came")
        let formatted = try run(["request", "GET", url, "--pretty", "format"])
        XCTAssertEqual(formatted.status, 0, formatted.stderr)
        XCTAssertTrue(formatted.stdout.contains("\n  \""), formatted.stdout)
        XCTAssertFalse(formatted.stdout.contains("\u{1B}["), "format has no colors")
        let same = try JSONSerialization.jsonObject(with: Data(formatted.stdout.utf8)) as? NSDictionary
        let original = try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? NSDictionary
        XCTAssertEqual(same?["url"] as? String, original?["url"] as? String, "the same document, indented")
        XCTAssertEqual(same?.allKeys.count, original?.allKeys.count)
        let colored = try run(["request", "GET", url, "--pretty", "all"])
        XCTAssertTrue(colored.stdout.contains("\u{1B}["), colored.stdout)
        XCTAssertFalse(try run(["request", "GET", url, "--pretty", "all", "--no-color"]).stdout.contains("\u{1B}["))
        let sorted = try run(["request", "GET", url, "--pretty", "format", "--sorted"])
        let keys = sorted.stdout.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
            String($0.dropFirst(3).prefix { $0 != "\"" })
        }
        XCTAssertFalse(keys.isEmpty, sorted.stdout)
        XCTAssertEqual(keys, keys.sorted(), sorted.stdout)
        // Headers too, by name, as HTTPie's and xh's --sorted: fields of one name keep their order.
        let headed = "http://127.0.0.1:\(server.port)/response-headers?Zeta=1&Alpha=2&Zeta=0&Mid=3"
        for extra in [[String](), ["-o", folder.url.appendingPathComponent("body").path]] {
            let head = try run(["request", "GET", headed, "-i", "--sorted"] + extra)
            XCTAssertEqual(head.status, 0, head.stderr)
            let names = head.stdout.split(separator: "\n").compactMap { line in
                ["Alpha", "Mid", "Zeta"].contains(where: { line.hasPrefix($0 + ":") }) ? String(line) : nil
            }
            XCTAssertEqual(names, ["Alpha: 2", "Mid: 3", "Zeta: 1", "Zeta: 0"], head.stdout)
        }
        let unsorted = try run(["request", "GET", headed, "-i"])
        XCTAssertTrue(
            unsorted.stdout.contains("Zeta: 1\r\nAlpha: 2") || unsorted.stdout.contains("Zeta: 1\nAlpha: 2"),
            unsorted.stdout)
        let refused = try run(["request", "GET", url, "--pretty", "loud"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("--pretty 'loud': give all, colors, format or none"), refused.stderr)
    }
}
