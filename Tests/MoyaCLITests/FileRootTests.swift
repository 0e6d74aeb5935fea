import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 11, item 8: a target file reads files only inside its folder (or `--file-root`) and
/// writes downloads only below the current folder; the command line may name any file.
final class FileRootTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/inside.txt", "inside")
        try folder.write("outside/secret.txt", "top secret")
    }

    override func tearDown() {
        server.stop()
    }

    private func run(_ arguments: [String], in directory: URL? = nil) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path], currentDirectory: directory ?? folder.url)
    }

    private func writeAPI(_ cases: String) throws {
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            cases:
            \(cases)
            """)
    }

    func testFilesOutsideTheTargetFilesFolderAreRefusedAtLoad() throws {
        let secret = folder.url.appendingPathComponent("outside/secret.txt").path
        let variants: [(String, String)] = [
            ("  c: {method: POST, path: /post, task: {dataFile: \(secret)}, sample: ok}", "dataFile"),
            ("  c: {method: POST, path: /post, task: {dataFile: ../outside/secret.txt}, sample: ok}", "dataFile"),
            ("  c: {method: PUT, path: /put, task: {upload: ../outside/secret.txt}, sample: ok}", "upload file"),
            (
                "  c: {method: POST, path: /post, task: {multipart: [{name: f, file: \(secret)}]}, sample: ok}",
                "multipart file"
            ),
            ("  c: {path: /get, sample: {file: ../outside/secret.txt}}", "sample file"),
            (
                "  c: {path: /get, values: [{doc: {type: file, default: ../outside/secret.txt}}], sample: ok}",
                "default file"
            )
        ]
        for (line, what) in variants {
            try writeAPI(line)
            for words in [["validate", "targets/api.yaml"], ["call", "api", "c", "--stub"], ["list", "api"]] {
                let result = try run(words)
                XCTAssertEqual(result.status, 65, "\(words) \(line): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("api.yaml:4:"), result.stderr)
                XCTAssertTrue(result.stderr.contains("\(what) '"), result.stderr)
                XCTAssertTrue(result.stderr.contains("is outside the target file's folder"), result.stderr)
                XCTAssertFalse(result.stdout.contains("top secret"))
            }
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    /// Issue 26, item 10: a sibling folder whose name starts with the folder's name (`targets2`
    /// next to `targets`) is outside it: the check compares whole path components.
    func testASiblingFolderSharingTheNameAsPrefixIsOutside() throws {
        try folder.write("targets2/secret.txt", "sibling secret")
        try folder.write("targets.d/secret.txt", "sibling secret")
        let sibling = folder.url.appendingPathComponent("targets2/secret.txt").path
        let variants: [(String, String)] = [
            ("  c: {method: POST, path: /post, task: {dataFile: ../targets2/secret.txt}, sample: ok}", "dataFile"),
            ("  c: {method: POST, path: /post, task: {dataFile: \(sibling)}, sample: ok}", "dataFile"),
            ("  c: {method: POST, path: /post, task: {dataFile: ../targets.d/secret.txt}, sample: ok}", "dataFile"),
            ("  c: {method: PUT, path: /put, task: {upload: ../targets2/secret.txt}, sample: ok}", "upload file"),
            (
                "  c: {method: POST, path: /post, task: {multipart: [{name: f, file: ../targets2/secret.txt}]}, sample: ok}",
                "multipart file"
            ),
            ("  c: {path: /get, sample: {file: ../targets2/secret.txt}}", "sample file")
        ]
        for (line, what) in variants {
            try writeAPI(line)
            for words in [["validate", "targets/api.yaml"], ["call", "api", "c"]] {
                let result = try run(words)
                XCTAssertEqual(result.status, 65, "\(words) \(line): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("\(what) '"), result.stderr)
                XCTAssertTrue(result.stderr.contains("is outside the target file's folder"), result.stderr)
                XCTAssertFalse(result.stdout.contains("sibling secret"))
            }
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    /// The same with `--file-root DIR` and a sibling `DIR2`, the root given with and without a
    /// trailing `/`; a file inside DIR is read.
    func testASiblingOfTheFileRootSharingItsNameAsPrefixIsOutside() throws {
        try folder.write("root/inside.txt", "inside root")
        try folder.write("root2/secret.txt", "sibling secret")
        let root = folder.url.appendingPathComponent("root").path
        for given in [root, root + "/", "root", "./root/"] {
            try writeAPI("  c: {method: POST, path: /post, task: {dataFile: ../root2/secret.txt}, sample: ok}")
            let refused = try run(["call", "api", "c", "--file-root", given])
            XCTAssertEqual(refused.status, 65, "\(given): \(refused.stderr)")
            XCTAssertTrue(
                refused.stderr.contains("dataFile '../root2/secret.txt' is outside --file-root"), refused.stderr)

            try writeAPI("  c: {method: POST, path: /post, task: {dataFile: ../root/inside.txt}, sample: ok}")
            let allowed = try run(["call", "api", "c", "--file-root", given])
            XCTAssertEqual(allowed.status, 0, "\(given): \(allowed.stderr)")
        }
        XCTAssertEqual(
            server.receivedRequests.map { String(decoding: $0.body, as: UTF8.self) },
            Array(repeating: "inside root", count: 4))
    }

    func testAnExampleFileOutsideTheFolderIsRefused() throws {
        try writeAPI(
            """
              c:
                values: [{doc: file}]
                method: POST
                path: /post
                task: {dataFile: "{doc}"}
                sample: ok
                examples: [[../outside/secret.txt]]
            """)
        let result = try run(["validate", "targets/api.yaml"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("file '../outside/secret.txt' for value 'doc' is outside"), result.stderr)
    }

    func testALinkInsideTheFolderThatLeadsOutIsOutside() throws {
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("targets/link").path,
            withDestinationPath: folder.url.appendingPathComponent("outside").path)
        try writeAPI("  c: {method: POST, path: /post, task: {dataFile: link/secret.txt}, sample: ok}")
        let result = try run(["call", "api", "c"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("dataFile 'link/secret.txt' is outside"), result.stderr)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testFileRootAllowsFilesUnderItAndStillRefusesOthers() throws {
        try writeAPI("  c: {method: POST, path: /post, task: {dataFile: ../outside/secret.txt}, sample: ok}")
        let allowed = try run(["call", "api", "c", "--file-root", folder.url.path])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, "top secret")

        let narrower = try run(["call", "api", "c", "--file-root", folder.url.appendingPathComponent("targets").path])
        XCTAssertEqual(narrower.status, 65, narrower.stderr)
        XCTAssertTrue(narrower.stderr.contains("is outside --file-root"), narrower.stderr)

        let missing = try run(["call", "api", "c", "--file-root", folder.url.appendingPathComponent("nope").path])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("is not a folder"), missing.stderr)
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testAValueCannotMakeATemplatedPathLeaveTheFolder() throws {
        try writeAPI(
            """
              c:
                values: [{name: string}]
                method: POST
                path: /post
                task: {dataFile: "{name}.txt"}
                sample: ok
            """)
        let escaping = try run(["call", "api", "c", "../outside/secret"])
        XCTAssertEqual(escaping.status, 64, escaping.stderr)
        XCTAssertTrue(escaping.stderr.contains("is outside the target file's folder"), escaping.stderr)
        let fine = try run(["call", "api", "c", "inside"])
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertEqual(server.receivedRequests.map { String(decoding: $0.body, as: UTF8.self) }, ["inside"])
    }

    func testAFileValueFromTheCommandLineMayBeAnywhere() throws {
        try writeAPI(
            """
              c:
                values: [{doc: file}]
                method: POST
                path: /post
                task: {dataFile: "{doc}"}
                sample: ok
            """)
        let result = try run(["call", "api", "c", folder.url.appendingPathComponent("outside/secret.txt").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.map { String(decoding: $0.body, as: UTF8.self) }, ["top secret"])
    }

    func testDownloadsStayBelowTheCurrentFolder() throws {
        let target = folder.url.appendingPathComponent("outside/authorized_keys").path
        for destination in [target, "../outside/authorized_keys", "downloads/../../authorized_keys"] {
            try writeAPI("  c: {path: /bytes/8, task: {download: \"\(destination)\"}, sample: ok}")
            let result = try run(
                ["call", "api", "c", "--stub", "--targets", "api.yaml"],
                in: folder.url.appendingPathComponent("targets"))
            XCTAssertEqual(result.status, 65, "\(destination): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains("download destination '\(destination)' leaves the current folder"), result.stderr
            )
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("authorized_keys").path))
    }

    func testAValueCannotAddAFolderToADownloadDestination() throws {
        try writeAPI(
            """
              c:
                values: [{name: string}]
                path: /bytes/8
                task: {download: "downloads/{name}.bin"}
                sample: ok
            """)
        for value in ["../evil", "a/b", "..", "."] {
            let result = try run(["call", "api", "c", value, "--stub"])
            XCTAssertEqual(result.status, 64, "\(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("value 'name' ('\(value)') would add a folder"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("evil.bin").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("downloads/a").path))

        let fine = try run(["call", "api", "c", "ok", "--stub"])
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("downloads/ok.bin").path))

        // The user's --output may name any place.
        let elsewhere = folder.url.appendingPathComponent("outside/mine.bin").path
        let output = try run(["call", "api", "c", "x", "--stub", "--output", elsewhere])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere))
    }

    func testListAndCaseHelpShowTheFilesACaseReadsAndWrites() throws {
        try folder.write("targets/sample.json", "{}")
        try writeAPI(
            """
              send: {method: POST, path: /post, task: {dataFile: inside.txt}, sample: {file: sample.json}}
              fetch:
                values: [{name: string}]
                path: /bytes/8
                task: {download: "downloads/{name}.bin"}
                sample: ok
              plain: {path: /get, sample: ok}
            """)
        let list = try run(["list", "api"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("FILES"), list.stdout)
        XCTAssertTrue(list.stdout.contains("reads inside.txt, sample.json"), list.stdout)
        XCTAssertTrue(list.stdout.contains("writes downloads/{name}.bin"), list.stdout)
        let json = try run(["list", "api", "--format", "json"])
        XCTAssertTrue(json.stdout.contains(#""reads": ["#), json.stdout)

        let help = try run(["call", "api", "send", "--help"])
        XCTAssertTrue(help.stdout.contains("reads: inside.txt, sample.json"), help.stdout)
        let fetchHelp = try run(["call", "api", "fetch", "--help"])
        XCTAssertTrue(fetchHelp.stdout.contains("writes: downloads/{name}.bin"), fetchHelp.stdout)
    }
}
