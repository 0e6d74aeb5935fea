import CLITestSupport
import Foundation
import TestServers
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Start-up and loading guarded by instruction budgets instead of figures in comments: the
/// release binary's instructions (valgrind's callgrind) for `--version`, a stubbed call, a live
/// call to nginx on loopback, `validate` and `list` of a 10,000-case file and `import openapi` of
/// a 1,000-operation spec, against `bench/budgets.json`: every thread summed, but for a budget
/// whose name says "busiest thread" (loading runs libyaml on one thread and the validator on
/// another, so the busier one bounds the time). Instructions, not time: a count repeats on a
/// shared machine where a stopwatch does not. CI runs them (`.ci/run`: `make budgets`).
///
/// Needs the release build (`make build`; its flags change the counts), named by
/// `$MOYA_CLI_RELEASE_BINARY`, and valgrind; without either the test is skipped with a message
/// saying what to run (`make budgets`). The live call needs nginx (`make test` installs it); without
/// it that one budget is not checked, and the test says so.
final class InstructionBudgetTests: XCTestCase {
    static let root = CLIRunner.repositoryRoot

    /// `$MOYA_CLI_RELEASE_BINARY`, which `make budgets` sets after building it: a release binary
    /// merely lying in `.build/release` may be older than the sources under test.
    func namedReleaseBinary() throws -> String {
        guard let path = ProcessInfo.processInfo.environment["MOYA_CLI_RELEASE_BINARY"],
            FileManager.default.isExecutableFile(atPath: path)
        else {
            throw XCTSkip(
                "MOYA_CLI_RELEASE_BINARY names no release binary: run 'make budgets' (it builds one and sets it)")
        }
        return path
    }

    func testInstructionsStayWithinTheirBudgets() throws {
        let releaseBinary = try namedReleaseBinary()
        guard
            let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw XCTSkip("valgrind is not installed: the instruction budgets cannot be checked here")
        }
        let budgets = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent("bench/budgets.json")))
                as? [String: Any])
        let folder = try TemporaryFolder()
        // valgrind cannot read the compressed debug sections of the static release build.
        let binary = folder.url.appendingPathComponent("moya-cli").path
        try run("/usr/bin/strip", ["--strip-debug", "-o", binary, releaseBinary])
        let large = folder.url.appendingPathComponent("large.yaml")
        let generated = try run(
            "/usr/bin/python3", [Self.root.appendingPathComponent("scripts/gen-large-target.py").path, "10000"])
        try generated.write(to: large)
        let spec = folder.url.appendingPathComponent("spec.json")
        try run("/usr/bin/python3", [Self.root.appendingPathComponent("scripts/gen-openapi.py").path, "1000"])
            .write(to: spec)
        let imported = folder.url.appendingPathComponent("imported.yaml").path

        var runs: [(name: String, arguments: [String], folder: URL)] = [
            ("--version", ["--version"], Self.root),
            // The first call of the example targets loads them and writes their load cache entries
            // (the scratch HOME starts empty); the second reads them.
            ("call --stub, load cache empty (github zen)", ["call", "github", "zen", "--stub"], Self.root),
            ("call --stub (github zen)", ["call", "github", "zen", "--stub"], Self.root),
            ("validate (10,000 cases, busiest thread)", ["validate", large.path], folder.url),
            ("list API (10,000 cases)", ["list", "large", "--targets", large.path], folder.url),
            (
                "import openapi (1,000 operations)",
                ["import", "openapi", spec.path, "--output", imported, "--force"], folder.url
            )
        ]
        // A target file changed in the last two seconds gets no load cache entry (its times could
        // miss a change): a checkout made just now is waited for.
        try Self.waitUntilSettled(Self.root.appendingPathComponent("targets"))
        let nginx = try LoopbackNginx(in: folder.url)
        defer { nginx?.stop() }
        if let nginx {
            let live = folder.url.appendingPathComponent("live.yaml")
            try Data(
                "api: local\nbaseURL: http://127.0.0.1:\(nginx.port)\ncases:\n  get:\n    path: /get\n".utf8
            ).write(to: live)
            runs.append(("call live (nginx, loopback)", ["call", "local", "get", "--targets", live.path], folder.url))
        } else {
            print("instruction budget: call live (nginx, loopback): not checked, nginx is not installed")
        }
        for (name, arguments, directory) in runs {
            let budget = try XCTUnwrap(budgets[name] as? Int, "bench/budgets.json has no budget '\(name)'")
            let (total, busiest) = try instructions(
                valgrind: valgrind, [binary] + arguments, in: directory, scratch: folder.url)
            let counted = name.contains("busiest thread") ? busiest : total
            print(
                "instruction budget: \(name): \(counted) of \(budget) (\(String(format: "%.1f", Double(counted) / Double(budget) * 100))%)"
            )
            XCTAssertLessThanOrEqual(
                counted, budget, "\(name): \(counted) instructions, over its budget of \(budget) in bench/budgets.json")
        }
    }

    /// The release link packs the functions `scripts/text-order.txt` names; a name the binary no
    /// longer has (a function renamed, or moved to another module, which changes its mangled name)
    /// is silently left where it was. So the file is regenerated (`make text-order`) rather than
    /// edited, and this fails when a move has left more than a few of its names behind.
    func testTheLinkOrderNamesTheBinarysFunctions() throws {
        let releaseBinary = try namedReleaseBinary()
        let listed = try String(contentsOf: Self.root.appendingPathComponent("scripts/text-order.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.hasPrefix(".text.") ? String($0.dropFirst(6)) : String($0) }
            // callgrind's names for a recursion's deeper levels (`name'2`) and its pseudo-functions
            // (`(below main)`) are no symbols; they place nothing.
            .filter { !$0.contains("'") && !$0.hasPrefix("(") }
        XCTAssertFalse(listed.isEmpty, "scripts/text-order.txt is empty: run 'make text-order'")
        let symbols = try run("/usr/bin/nm", ["--defined-only", releaseBinary])
        var defined = Set<Substring>()
        for line in String(decoding: symbols, as: UTF8.self).split(separator: "\n") {
            if let name = line.split(separator: " ").last { defined.insert(name) }
        }
        let missing = listed.filter { !defined.contains(Substring($0)) }
        print(
            "link order: \(listed.count - missing.count) of \(listed.count) functions of scripts/text-order.txt are in the binary"
        )
        // Callgrind names a few functions the linker's symbol table spells differently (clones
        // and thunks), so a small remainder is expected; a move of modules leaves hundreds.
        XCTAssertLessThanOrEqual(
            missing.count, listed.count / 50,
            "\(missing.count) of \(listed.count) functions scripts/text-order.txt names are not in the binary (first: \(missing.prefix(3).joined(separator: ", "))): run 'make text-order'"
        )
    }

    /// Waits until every file of `folder` last changed more than two seconds ago.
    static func waitUntilSettled(_ folder: URL) throws {
        var newest = 0.0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var info = stat()
            guard stat(folder.appendingPathComponent(name).path, &info) == 0 else { continue }
            newest = max(
                newest, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9,
                Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9)
        }
        let wait = newest + 2.2 - Date().timeIntervalSince1970
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    /// The instructions of one run under callgrind: every thread summed, and the busiest thread's.
    func instructions(valgrind: String, _ argv: [String], in directory: URL, scratch: URL) throws -> (
        total: Int, busiest: Int
    ) {
        let out = scratch.appendingPathComponent("callgrind.out").path
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        where name.hasPrefix("callgrind.out") {
            try FileManager.default.removeItem(at: scratch.appendingPathComponent(name))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = ["--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=\(out)"] + argv
        process.currentDirectoryURL = directory
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(argv.dropFirst().joined(separator: " ")) failed under valgrind")
        var total = 0
        var busiest = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        where name.hasPrefix("callgrind.out") {
            let text = try String(contentsOf: scratch.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("summary: ") || line.hasPrefix("totals: ") {
                let thread = Int(line.split(separator: " ")[1]) ?? 0
                total += thread
                busiest = max(busiest, thread)
                break
            }
        }
        XCTAssertGreaterThan(total, 0, "callgrind counted nothing for \(argv.dropFirst().joined(separator: " "))")
        return (total, busiest)
    }

    @discardableResult
    func run(_ program: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(program) \(arguments.joined(separator: " "))")
        return data
    }
}

/// nginx serving HTTP/1.1 on 127.0.0.1 from a folder, one process (`master_process off`), for the
/// live call's budget: the same small JSON `make bench`'s live row fetches. `nil` without nginx.
final class LoopbackNginx {
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    let port: UInt16
    private let process: Process

    init?(in scratch: URL) throws {
        guard let nginx = NginxTestServer.nginxPath else { return nil }
        let folder = scratch.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("www"), withIntermediateDirectories: true)
        try Data("{\"ok\":true}\n".utf8).write(to: folder.appendingPathComponent("www/get"))
        port = try TLSTestServer.freePort()
        let path = folder.path
        let configuration = """
            daemon off; master_process off; worker_processes 1;
            pid \(path)/nginx.pid; error_log \(path)/error.log warn;
            events { worker_connections 64; }
            http {
                access_log off; default_type application/json;
                client_body_temp_path \(path)/body; proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi; uwsgi_temp_path \(path)/uwsgi; scgi_temp_path \(path)/scgi;
                server { listen 127.0.0.1:\(port); root \(path)/www; }
            }
            """
        try Data(configuration.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", path, "-c", folder.appendingPathComponent("nginx.conf").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Listening within 10 s, or the budget cannot be measured.
        for _ in 0..<200 {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw StartError(description: "nginx did not listen on 127.0.0.1:\(port)")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private static func accepts(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
