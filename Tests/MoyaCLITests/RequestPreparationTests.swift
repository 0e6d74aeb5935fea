import CLITestSupport
import Foundation
import Sending
import TargetSpec
import TestServers
import XCTest

/// Per-request preparation (issue 46): `{$uuid}`-style values made afresh for each request, a
/// trusted file's `prepare` program signing each request, and SigV4 signing.
final class RequestPreparationTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        server.stop()
    }

    var trusted: [String: String] { ["MOYA_TRUSTED_TARGETS": folder.url.appendingPathComponent("targets").path] }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: environment, currentDirectory: folder.url)
    }

    /// A `prepare` program that signs as `/hmac-signed` checks: HMAC-SHA-256 of method, path,
    /// timestamp and the body's SHA-256 (which it checks against the body file it is given). It
    /// logs one line per run.
    func writeSigningHook() throws -> (script: String, log: String) {
        let log = folder.url.appendingPathComponent("hook.log").path
        let script = try folder.write(
            "bin/sign.py",
            """
            #!/usr/bin/env python3
            import hashlib, hmac, json, sys, time, urllib.parse
            request = json.load(sys.stdin)
            body = open(request["bodyFile"], "rb").read()
            assert hashlib.sha256(body).hexdigest() == request["bodySha256"], "the body's hash is the file's"
            path = urllib.parse.urlsplit(request["url"]).path
            stamp = str(int(time.time()))
            message = "\\n".join([request["method"], path, stamp, request["bodySha256"]])
            signature = hmac.new(b"\(HTTPTestServer.signingKey)", message.encode(), hashlib.sha256).hexdigest()
            with open("\(log)", "a") as log:
                log.write(request["method"] + " " + path + " " + request["headers"].get("X-Request-Id", "-") + "\\n")
            print(json.dumps({"X-Timestamp": stamp, "X-Signature": signature}))
            """)
        chmod(script.path, 0o700)
        return (script.path, log)
    }

    func writeSignedAPI(hook: String, cases: Int = 1) throws {
        var text = """
            baseURL: http://127.0.0.1:\(server.port)
            prepare: ["\(hook)"]
            headers: {X-Request-Id: "{$uuid}"}
            validation: successCodes
            cases:
              create:
                method: POST
                path: /hmac-signed/items
                task: {json: {id: "{$uuid}", at: "{$isoDate}", name: widget}}
                sample: ok

            """
        for index in 0..<cases {
            text += "  read\(index): {path: /hmac-signed/read/\(index), sample: ok}\n"
        }
        let target = try folder.write("targets/signed.yaml", text)
        chmod(target.path, 0o644)
    }

    func testATrustedPrepareProgramSignsEachRequestTheServerVerifies() throws {
        let (script, log) = try writeSigningHook()
        try writeSignedAPI(hook: script)
        let result = try run(["call", "signed", "create", "-v"], environment: trusted)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"verified":true}"#)
        // Announced before it first runs; what it adds is hidden like a credential.
        XCTAssertTrue(
            result.stderr.hasPrefix("moya-cli: running the prepare program of API 'signed' (targets/signed.yaml)"),
            result.stderr)
        let received = try XCTUnwrap(server.receivedRequests.last)
        let signature = try XCTUnwrap(received.value(of: "X-Signature"))
        XCTAssertFalse(result.stderr.contains(signature), result.stderr)
        XCTAssertTrue(result.stderr.contains("X-Signature: <redacted>"), result.stderr)
        // The body's `{$uuid}` and the header's are the request's one value; the date is ISO 8601.
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: received.body) as? [String: String])
        let id = try XCTUnwrap(received.value(of: "X-Request-Id"))
        XCTAssertEqual(body["id"], id)
        XCTAssertNotNil(UUID(uuidString: id), id)
        XCTAssertNotNil(ISO8601DateFormatter().date(from: body["at"] ?? ""), body["at"] ?? "")
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "POST /hmac-signed/items \(id)\n")
    }

    /// Under `check --live --jobs 4`, every request has its own id and its own run of the program.
    func testEveryRequestOfACheckHasItsOwnValuesAndItsOwnSignature() throws {
        let (script, log) = try writeSigningHook()
        try writeSignedAPI(hook: script, cases: 12)
        // The POST is not sent live without --include-unsafe: the 12 reads are.
        let result = try run(["check", "signed", "--live", "--jobs", "4"], environment: trusted)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let requests = server.receivedRequests
        XCTAssertEqual(requests.count, 12)
        XCTAssertTrue(requests.allSatisfy { $0.method == "GET" })
        let ids = requests.compactMap { $0.value(of: "X-Request-Id") }
        XCTAssertEqual(ids.count, 12)
        XCTAssertEqual(Set(ids).count, 12, "\(ids)")
        XCTAssertTrue(ids.allSatisfy { UUID(uuidString: $0) != nil }, "\(ids)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 12)
        XCTAssertEqual(Set(lines.compactMap { $0.split(separator: " ").last.map(String.init) }), Set(ids))
    }

    /// A retry is a new request: new values, a new run of the program.
    func testARetryGetsFreshValues() throws {
        let target = try folder.write(
            "targets/flaky.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              busy:
                path: "/status/503"
                task: {parameters: {header: "Retry-After:0", at: "{$timestamp}"}, encoding: url}
                headers: {X-Request-Id: "{$uuid}"}
                sample: ok
            """)
        chmod(target.path, 0o644)
        let result = try run(["call", "flaky", "busy", "--retry", "2"])
        XCTAssertEqual(result.status, 5, result.stderr)
        let ids = server.receivedRequests.compactMap { $0.value(of: "X-Request-Id") }
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(Set(ids).count, 3, "\(ids)")
        let stamps = server.receivedRequests.compactMap { $0.queryItems.first { $0.name == "at" }?.value }
        XCTAssertEqual(stamps.count, 3)
        XCTAssertTrue(stamps.allSatisfy { Int($0) != nil }, "\(stamps)")
    }

    /// Each page of --all is a request of its own.
    func testEveryPageGetsFreshValues() throws {
        let target = try folder.write(
            "targets/paged.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            pagination: {next: link}
            headers: {X-Request-Id: "{$uuid}"}
            cases:
              link: {path: /pages/link, sample: {json: []}}
            """)
        chmod(target.path, 0o644)
        let result = try run(["call", "paged", "link", "--all"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let ids = server.receivedRequests.compactMap { $0.value(of: "X-Request-Id") }
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(Set(ids).count, 3, "\(ids)")
    }

    func testAnUntrustedFilesPrepareProgramIsRefusedAndNothingRuns() throws {
        let marker = folder.url.appendingPathComponent("ran").path
        let script = try folder.write("bin/hook.sh", "#!/bin/sh\ntouch \(marker)\necho '{}'\n")
        chmod(script.path, 0o700)
        try writeSignedAPI(hook: script.path)
        let result = try run(["call", "signed", "create"])
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("moya-cli: error: not running the prepare program"), result.stderr)
        XCTAssertTrue(result.stderr.contains("only from a target file you trust"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
        XCTAssertTrue(server.receivedRequests.isEmpty)
        // Offline, nothing needs running: the sample answers.
        XCTAssertEqual(try run(["call", "signed", "create", "--stub"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
    }

    /// What a program prints is checked as any header line: no line break, no framing header.
    func testAProgramsHostileOutputIsRefused() throws {
        for (output, message) in [
            (#"printf '%s' '{"X-Evil": "a\r\nInjected: yes"}'"#, "with a line break"),
            (#"printf '%s' '{"Content-Length": "0"}'"#, "header name that cannot be sent"),
            ("printf '%s' 'not json'", "did not print a JSON object"),
            (#"printf '%s' '{"X-Number": 5}'"#, "not a string"),
            ("head -c 100000 /dev/zero | tr '\\0' a", "printed more than 64 KiB"),
            ("echo '{}'; exit 3", "failed with exit status 3"),
            ("kill -9 $$", "was killed by signal 9")
        ] {
            let script = try folder.write("bin/hook.sh", "#!/bin/sh\ncat > /dev/null\n\(output)\n")
            chmod(script.path, 0o700)
            try writeSignedAPI(hook: script.path)
            let result = try run(["call", "signed", "create"], environment: trusted)
            XCTAssertEqual(result.status, 7, output + result.stderr)
            XCTAssertTrue(result.stderr.contains(message), output + result.stderr)
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    /// `serve` routes a `{$…}` path segment as any text, and a sample's `{$uuid}` is a UUID.
    func testServeRoutesADynamicSegmentAndAnswersAFreshSample() throws {
        let target = try folder.write(
            "targets/events.yaml",
            """
            baseURL: http://127.0.0.1:9
            cases:
              event: {path: "/events/{$timestamp}/log", sample: {json: {id: "{$uuid}"}}}
            """)
        chmod(target.path, 0o644)
        let server = try ServeProcess([], in: folder.url)
        let answer = try server.curl("/events/1733500800/log")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), answer)
        let body = try XCTUnwrap(answer.components(separatedBy: "\r\n\r\n").last)
        let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])?["id"])
        XCTAssertNotNil(UUID(uuidString: id), body)
        XCTAssertEqual(server.stop(), 130)
    }

    func testUnknownDynamicValuesAreReportedAtLoad() throws {
        let target = try folder.write(
            "targets/typo.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              get: {path: "/anything/{$uid}", sample: ok}
            """)
        chmod(target.path, 0o644)
        let result = try run(["validate", target.path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("unknown dynamic value '{$uid}'; use one of {$uuid}"), result.stderr)
    }

    // MARK: SigV4

    func writeAWSAPI(service: String = "execute-api") throws {
        let target = try folder.write(
            "targets/aws.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth:
              type: awsSigV4
              region: eu-west-1
              service: \(service)
              accessKey: "${AWS_ACCESS_KEY_ID}"
              secretKey: "${AWS_SECRET_ACCESS_KEY}"
            cases:
              put:
                method: PUT
                path: /anything/a%20b
                task: {parameters: {z: last, a: "first one"}, encoding: url, destination: queryString}
                headers: {Content-Type: text/plain}
                sample: ok
              upload:
                method: POST
                path: /anything/up
                task: {data: "hello {$uuid}"}
                sample: ok
            """)
        chmod(target.path, 0o644)
    }

    var awsKeys: [String: String] {
        ["AWS_ACCESS_KEY_ID": "AKIDLOOPBACK", "AWS_SECRET_ACCESS_KEY": "loopback/secret+key/EXAMPLE"]
    }

    /// The request as the server received it signs to the signature it carries: the signer is
    /// checked against the suite's vectors (`AWSSigV4SignerTests`), this checks what it was given.
    func testSigV4SignsTheRequestAsReceived() throws {
        try writeAWSAPI()
        for caseName in ["put", "upload"] {
            let result = try run(["call", "aws", caseName, "-v"], environment: awsKeys)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stderr.contains("loopback/secret+key"), result.stderr)
            let received = try XCTUnwrap(server.receivedRequests.last)
            let authorization = try XCTUnwrap(received.value(of: "Authorization"))
            let date = try XCTUnwrap(received.value(of: "X-Amz-Date"))
            let signedNames = try XCTUnwrap(
                authorization.components(separatedBy: "SignedHeaders=").last?.components(separatedBy: ",").first)
            let headers = received.headers.filter {
                signedNames.split(separator: ";").contains(Substring($0.name.lowercased()))
                    && $0.name.lowercased() != "host"
            }.map { (name: $0.name, value: $0.value) }
            let signer = AWSSigV4Signer(
                credential: AWSSigV4Credential(
                    region: "eu-west-1", service: "execute-api", accessKey: "AKIDLOOPBACK",
                    secretKey: "loopback/secret+key/EXAMPLE"))
            let expected = signer.authorization(
                for: AWSSigV4Signer.Request(
                    method: received.method, url: "http://127.0.0.1:\(server.port)" + received.target, headers: headers,
                    payloadHash: SHA256Hex.of(received.body)),
                date: date)
            XCTAssertEqual(authorization, expected, caseName)
            XCTAssertTrue(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDLOOPBACK/"), authorization)
        }
        let put = server.receivedRequests[0]
        XCTAssertTrue(put.value(of: "Authorization")?.contains("SignedHeaders=content-type;host;x-amz-date,") ?? false)
    }

    func testCurlPrintsAWSSigV4() throws {
        try writeAWSAPI(service: "s3")
        let result = try run(["curl", "aws", "put"], environment: awsKeys)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stdout.contains("--aws-sigv4 'aws:amz:eu-west-1:s3' --user '<redacted>:<redacted>'"), result.stdout)
        XCTAssertFalse(result.stdout.contains("loopback/secret"), result.stdout)
    }

    func testSigV4KeysMustBeReferences() throws {
        let target = try folder.write(
            "targets/literal.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: awsSigV4, region: "eu west", service: s3, accessKey: AKID, secretKey: "${SECRET}"}
            cases:
              get: {path: /get, sample: ok}
            """)
        let result = try run(["validate", target.path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("invalid region 'eu west'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("literal secret in file; use ${VAR} for auth accessKey"), result.stderr)
    }
}

/// The hex SHA-256 of a body, for the test's own recomputation.
enum SHA256Hex {
    static func of(_ data: Data) -> String {
        let digest = ProcessSHA256.digest(data)
        return digest
    }
}

/// `sha256sum` of bytes, so the test does not lean on the code it checks.
enum ProcessSHA256 {
    static func digest(_ data: Data) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        input.fileHandleForWriting.write(data)
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
