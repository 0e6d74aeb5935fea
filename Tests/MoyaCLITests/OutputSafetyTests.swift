import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 10, "trustworthy I/O": special files are written through and never replaced, bodies are
/// streamed, every write is checked, nothing blocks outside the timeout, every signal cleans up.
/// Device nodes and tmpfs mounts are made in a temporary folder (root only; skipped otherwise).
final class OutputSafetyTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/io.yaml",
            """
            api: io
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            timeout: 20
            cases:
              bytes:
                values: [{size: int}]
                path: /bytes/{size}
                sample: {text: "abc"}
              json:
                path: /json
                sample: {json: {slideshow: {title: x}}}
              jsonBytes:
                values: [{size: int}]
                path: /bytes/{size}
                sample: {json: {id: 1}}
                examples: [[2000000]]
              binary:
                path: /bytes/3000000
                sample: {text: "abc"}
              download:
                values: [{size: int}]
                path: /bytes/{size}
                task: {download: "out/{size}.bin"}
                sample: {text: "abc"}
              slowDownload:
                path: /slow-body
                task: {download: "made/deeper/slow.bin"}
                sample: {text: "abc"}
              upload:
                method: PUT
                values: [{file: file}]
                path: /put
                task: {upload: "{file}"}
                sample: ok
              multipart:
                method: POST
                values: [{file: file}]
                path: /post
                task:
                  multipart:
                    - {name: doc, file: "{file}"}
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path], currentDirectory: folder.url)
    }

    func shell(_ command: String) throws -> CLIResult {
        try CLIRunner.runShell(command, in: folder.url)
    }

    var binary: String { CLIRunner.binaryURL.path }

    func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }

    /// The file's type, not following a link (`S_IFCHR`, `S_IFIFO`, `S_IFLNK`, ...).
    func fileType(_ name: String) throws -> mode_t {
        var status = stat()
        XCTAssertEqual(lstat(path(name), &status), 0, name)
        return status.st_mode & S_IFMT
    }

    func leftovers() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).filter {
            $0.contains(".moya-") || $0.hasSuffix(".part")
        }
    }

    func requireRoot() throws {
        try XCTSkipUnless(getuid() == 0, "device nodes and tmpfs mounts need root")
    }

    /// A character device like /dev/null (1,3), /dev/full (1,7) or /dev/zero (1,5), made here.
    func makeDevice(_ name: String, minor: UInt32) throws {
        try requireRoot()
        XCTAssertEqual(mknod(path(name), S_IFCHR | 0o666, makedev(1, minor)), 0, String(cString: strerror(errno)))
    }

    func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
        dev_t((major << 8) | minor)
    }

    // MARK: 1. Special files are written through, never replaced

    func testADeviceGivenToDashOIsWrittenThroughNotReplaced() throws {
        try makeDevice("null", minor: 3)
        for extra in [[], ["--force"], ["--stub"]] {
            let result = try run(["call", "io", "bytes", "5000", "-o", "null"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "moya-cli: wrote \(extra == ["--stub"] ? 3 : 5000) bytes to null\n")
            XCTAssertEqual(try fileType("null"), S_IFCHR, "still a device after \(extra)")
        }
        let download = try run(["call", "io", "download", "4000", "-o", "null", "--force"])
        XCTAssertEqual(download.status, 0, download.stderr)
        XCTAssertEqual(try fileType("null"), S_IFCHR, "a download does not replace it either")
        XCTAssertEqual(try leftovers(), [])
    }

    func testAFIFOGivenToDashOIsWrittenThrough() throws {
        XCTAssertEqual(mkfifo(path("pipe"), 0o600), 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread { [path = path("pipe")] in
            let descriptor = open(path, O_RDONLY)
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count <= 0 { break }
                received.append(contentsOf: chunk[0..<count])
            }
            close(descriptor)
        }
        reader.start()
        let result = try run(["call", "io", "bytes", "70000", "-o", "pipe"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let deadline = Date().addingTimeInterval(10)
        while received.count < 70000 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(received, TestBytes.data(count: 70000))
        XCTAssertEqual(try fileType("pipe"), S_IFIFO)
    }

    func testASymlinkIsNeverReplacedItsTargetIs() throws {
        _ = try folder.write("real.bin", "old")
        XCTAssertEqual(symlink("real.bin", path("link.bin")), 0)
        // -o replaces like curl (issue 28): a rerun needs no --force, and the link stays a link.
        for (size, extra) in [(100, []), (200, ["--force"])] {
            let result = try run(["call", "io", "bytes", String(size), "-o", "link.bin"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try fileType("link.bin"), S_IFLNK)
            XCTAssertEqual(FileManager.default.contents(atPath: path("real.bin")), TestBytes.data(count: size))
        }
        XCTAssertEqual(try leftovers(), [])
    }

    func testAReportToADescriptorLinkGoesThroughWithoutForce() throws {
        // What /dev/stdout is: a link into /proc, here made in the temporary folder.
        XCTAssertEqual(symlink("/proc/self/fd/1", path("stdout-link")), 0)
        let result = try run(["check", "io", "--report", "tap:stdout-link", "--only", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("TAP version"), result.stdout)
        XCTAssertEqual(try fileType("stdout-link"), S_IFLNK)
        let dashO = try run(["call", "io", "json", "-o", "stdout-link"])
        XCTAssertEqual(dashO.status, 0, dashO.stderr)
        XCTAssertEqual(dashO.stdout, HTTPTestServer.jsonDocument)
        XCTAssertEqual(try fileType("stdout-link"), S_IFLNK)
    }

    func testAnExistingRegularReportIsReplacedAndADeviceReportWrittenThrough() throws {
        _ = try folder.write("report.xml", "old")
        let result = try run(["check", "io", "--only", "json", "--report", "junit:report.xml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try String(contentsOfFile: path("report.xml"), encoding: .utf8).contains("<testsuites"))
        try makeDevice("null", minor: 3)
        let device = try run(["check", "io", "--only", "json", "--report", "junit:null"])
        XCTAssertEqual(device.status, 0, device.stderr)
        XCTAssertEqual(try fileType("null"), S_IFCHR)
    }

    func testDashOMinusIsStandardOutput() throws {
        let result = try run(["call", "io", "bytes", "300", "-o", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutData, TestBytes.data(count: 300))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("-")))
        let download = try run(["call", "io", "download", "500", "-o", "-"])
        XCTAssertEqual(download.status, 0, download.stderr)
        XCTAssertEqual(download.stdoutData, TestBytes.data(count: 500))
    }

    // MARK: 2. Bodies are streamed; only what needs the whole body keeps it, up to a limit

    func testStreamedBodiesIgnoreTheLimitThatBufferedOnesHit() throws {
        let size = 3_000_000
        let piped = try run(["call", "io", "bytes", "\(size)", "--max-body-size", "1M"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdoutData, TestBytes.data(count: size), "a pipe gets the body as it arrives")
        let included = try run(["call", "io", "bytes", "\(size)", "--max-body-size", "1M", "-i"])
        XCTAssertEqual(included.status, 0, included.stderr)
        XCTAssertTrue(included.stdout.hasPrefix("HTTP/1.1 200 OK\n"), String(included.stdout.prefix(80)))
        XCTAssertEqual(included.stdoutData.suffix(size), TestBytes.data(count: size))
        let file = try run(["call", "io", "bytes", "\(size)", "--max-body-size", "1M", "-o", "big.bin"])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: path("big.bin")), TestBytes.data(count: size))

        for buffered in [["--format", "json"], ["--keypath", "a"]] {
            let result = try run(["call", "io", "bytes", "\(size)", "--max-body-size", "1M"] + buffered)
            XCTAssertEqual(result.status, 1, "\(buffered): \(result.stderr)")
            XCTAssertEqual(
                result.stderr,
                "moya-cli: error: the response body is larger than 1 MiB, the most kept in memory; "
                    + "raise --max-body-size, or stream the body to a pipe or --output FILE\n")
        }
        let verbose = try run(["call", "io", "bytes", "\(size)", "-v"])
        XCTAssertEqual(verbose.status, 0)
        // -v shows the exchange as HTTP; the body is not repeated there, it streams to stdout.
        XCTAssertTrue(verbose.stderr.contains("< HTTP/1.1 200 OK"), String(verbose.stderr.suffix(300)))
        XCTAssertLessThan(verbose.stderr.utf8.count, 4096, "no body in the log")
        XCTAssertEqual(verbose.stdoutData.count, size)
    }

    func testCheckKeepsOnlyBodiesItComparesAndThoseWithinTheLimit() throws {
        let binary = try run(["check", "io", "--live", "--only", "binary", "--max-body-size", "1M"])
        XCTAssertEqual(binary.status, 0, "a body with no JSON sample is dropped, whatever its size: \(binary.stderr)")
        let json = try run(["check", "io", "--live", "--only", "jsonBytes", "--max-body-size", "1M"])
        XCTAssertEqual(json.status, 8, json.stderr)
        XCTAssertTrue(json.stderr.contains("larger than 1 MiB"), json.stderr)
    }

    func testMaxBodySizeIsValidated() throws {
        for bad in ["0", "-1", "1X", "M", "99999999999T"] {
            let result = try run(["call", "io", "json", "--max-body-size", bad])
            XCTAssertEqual(result.status, 64, "\(bad): \(result.stderr)")
        }
        XCTAssertEqual(try run(["call", "io", "json", "--max-body-size", "64KiB"]).status, 0)
    }

    // MARK: 3. Every write is checked

    func testAFullDeviceOnStdoutExits74ForEveryCommand() throws {
        try makeDevice("full", minor: 7)
        let commands = [
            "call io bytes 100", "call io bytes 100 -i", "call io json --format json", "call io bytes 10 --stub",
            "curl io json", "list io", "list"
        ]
        for command in commands {
            let result = try shell("\(binary) \(command) > full")
            XCTAssertEqual(result.status, 74, "\(command): \(result.stderr)")
            XCTAssertEqual(
                result.stderr, "moya-cli: error: cannot write standard output: No space left on device\n", command)
        }
        let dashO = try run(["call", "io", "bytes", "100", "-o", "full"])
        XCTAssertEqual(dashO.status, 74, dashO.stderr)
        XCTAssertEqual(dashO.stderr, "moya-cli: error: cannot write full: No space left on device\n")
        let report = try run(["check", "io", "--only", "json", "--report", "json:full"])
        XCTAssertEqual(report.status, 74, report.stderr)
        XCTAssertTrue(report.stderr.contains("cannot write the json report: cannot write "), report.stderr)
        XCTAssertTrue(report.stderr.contains("/full: No space left on device"), report.stderr)
    }

    func testAClosedStdoutExits74() throws {
        for command in ["call io bytes 100", "call io bytes 10 --stub", "list io", "curl io json"] {
            let result = try shell("\(binary) \(command) >&-")
            XCTAssertEqual(result.status, 74, "\(command): \(result.stderr)")
            XCTAssertEqual(
                result.stderr, "moya-cli: error: cannot write standard output: Bad file descriptor\n", command)
        }
    }

    func testABrokenPipeExits141Quietly() throws {
        let bash = try CLIRunner.runShell(
            "bash -c '\(binary) call io bytes 20000000 2> err.txt | head -c 10 > /dev/null; echo status ${PIPESTATUS[0]}'",
            in: folder.url)
        XCTAssertEqual(bash.stdout, "status 141\n")
        XCTAssertEqual(try String(contentsOfFile: path("err.txt"), encoding: .utf8), "")
        XCTAssertLessThan(server.receivedRequests.count, 3)
    }

    func testAFullFileSystemLeavesNoPartialFile() throws {
        try requireRoot()
        let mount = folder.url.appendingPathComponent("small").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = try shell("mount -t tmpfs -o size=256k tmpfs '\(mount)'")
        try XCTSkipUnless(mounted.status == 0, "cannot mount a tmpfs here: \(mounted.stderr)")
        defer { _ = try? shell("umount '\(mount)'") }

        let dashO = try run(["call", "io", "bytes", "2000000", "-o", "small/body.bin"])
        XCTAssertEqual(dashO.status, 74, dashO.stderr)
        XCTAssertEqual(dashO.stderr, "moya-cli: error: cannot write small/body.bin: No space left on device\n")
        let download = try run(["call", "io", "download", "2000000", "-o", "small/sub/dl.bin"])
        XCTAssertEqual(download.status, 74, download.stderr)
        let redirected = try shell("\(binary) call io bytes 2000000 > small/redirected.bin")
        XCTAssertEqual(redirected.status, 74, redirected.stderr)
        XCTAssertEqual(redirected.stderr, "moya-cli: error: cannot write standard output: No space left on device\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: mount), ["redirected.bin"],
            "no temporary file, no destination, no folder left by -o and the download")
    }

    // MARK: 4. Nothing blocks: FIFOs are refused or skipped

    func testAFIFOTypedAsAnUploadValueIsStreamed() throws {
        // A FIFO typed on the command line is a stream (issue 46): read as its writer writes,
        // sent chunked. Stubbed, nothing reads it. (A FIFO a target file names is refused:
        // StreamedUploadTests.)
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        for kind in ["upload", "multipart"] {
            let stubbed = try CLIRunner.run(
                ["call", "io", kind, "fifo", "--stub"], environment: ["HOME": folder.url.path],
                currentDirectory: folder.url, timeout: 10)
            XCTAssertEqual(stubbed.status, 0, "\(kind): \(stubbed.stderr)")
            let writer = Thread { [path = path("fifo")] in
                let descriptor = open(path, O_WRONLY)
                _ = "through the fifo".withCString { write(descriptor, $0, 16) }
                close(descriptor)
            }
            writer.start()
            let result = try CLIRunner.run(
                ["call", "io", kind, "fifo"], environment: ["HOME": folder.url.path], currentDirectory: folder.url,
                timeout: 10)
            XCTAssertEqual(result.status, 0, "\(kind): \(result.stderr)")
            let sent = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertTrue(sent.isChunked, kind)
            XCTAssertTrue(String(decoding: sent.body, as: UTF8.self).contains("through the fifo"), kind)
        }
    }

    func testAFIFONamedYAMLIsSkippedInAFolderAndRefusedByName() throws {
        XCTAssertEqual(mkfifo(path("targets/trap.yaml"), 0o600), 0)
        for arguments in [["list"], ["validate"], ["call", "io", "json", "--stub"], ["check", "io", "--only", "json"]] {
            let result = try CLIRunner.run(
                arguments, environment: ["HOME": folder.url.path], currentDirectory: folder.url, timeout: 10)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        let named = try CLIRunner.run(
            ["validate", "targets/trap.yaml"], environment: ["HOME": folder.url.path],
            currentDirectory: folder.url, timeout: 10)
        XCTAssertEqual(named.status, 65, named.stderr)
        XCTAssertTrue(
            named.stderr.contains("targets/trap.yaml: error: cannot read the file: it is not a regular file"),
            named.stderr)
    }

    // MARK: 5. Every signal cleans up

    func testSIGTERMAndSIGHUPRemovePartialFilesAndCreatedFolders() throws {
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, 129), (SIGINT, 130)] {
            let before = server.receivedRequests.count
            let run = try CLIRunner.interrupt(
                ["call", "io", "slowDownload"], in: folder.url, signal: signal,
                when: { server.receivedRequests.count > before }
            ) { _ in
                usleep(300_000)
                return try leftovers().count
            }
            XCTAssertEqual(run.seen, 1, "the partial file existed while downloading")
            XCTAssertEqual(run.status, status, run.stderr)
            XCTAssertEqual(try leftovers(), [], "signal \(signal)")
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: path("made")), "the folders made for the download are gone")
        }
    }

    func testASignalWhileBlockedOnAFIFOStillCleansUp() throws {
        // Nobody reads the FIFO: the write blocks; the signal must still end the run.
        XCTAssertEqual(mkfifo(path("stuck"), 0o600), 0)
        let run = try CLIRunner.interrupt(
            ["call", "io", "bytes", "10", "-o", "stuck"], in: folder.url, signal: SIGTERM,
            when: { !server.receivedRequests.isEmpty }
        ) { _ in usleep(200_000) }
        XCTAssertEqual(run.status, 143, run.stderr)
    }

    // MARK: 6. Non-regular inputs

    func testAPseudoFileIsSentWithItsRealContent() throws {
        let result = try run(["call", "io", "upload", "/proc/self/status"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let sent = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertGreaterThan(sent.bodyLength, 0)
        XCTAssertTrue(String(decoding: sent.body, as: UTF8.self).hasPrefix("Name:"), "the upload is the file's content")
        let multipart = try run(["call", "io", "multipart", "/proc/self/status"])
        XCTAssertEqual(multipart.status, 0, multipart.stderr)
        XCTAssertTrue(
            String(decoding: try XCTUnwrap(server.receivedRequests.last).body, as: UTF8.self).contains("Name:"))
    }

    func testADeviceAsAPartOrUploadIsRefusedBeforeSending() throws {
        try makeDevice("zero", minor: 5)
        for kind in ["upload", "multipart"] {
            let result = try CLIRunner.run(
                ["call", "io", kind, "zero"], environment: ["HOME": folder.url.path],
                currentDirectory: folder.url, timeout: 10)
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertEqual(
                result.stderr, "moya-cli: error: cannot send 'zero': it is a character device, not a regular file\n")
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }
}
