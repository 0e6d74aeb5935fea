import Foundation
import XCTest

/// The outcome of running the built `moya-cli` binary as a user would.
package struct CLIResult {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    package var stdoutData: Data

    package init(status: Int32, stdout: String, stderr: String, stdoutData: Data) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutData = stdoutData
    }
}

/// A run ended by Ctrl-C: its exit status, its stderr, and what was seen while it ran.
package struct InterruptedRun<Seen> {
    package var status: Int32
    package var stderr: String
    package var seen: Seen
}

/// Runs the built `moya-cli` binary with real arguments, environment and working directory.
package enum CLIRunner {
    /// Runs `moya-cli arguments...` in `folder` (HOME there too), waits until `isReady()`, looks at
    /// the process with `whileRunning` (given its pid), sends it `signal` (SIGINT unless told) and
    /// waits for it to end.
    package static func interrupt<Seen>(
        _ arguments: [String], in folder: URL, signal: Int32 = SIGINT, environment: [String: String] = [:],
        when isReady: () -> Bool, whileRunning: (Int32) throws -> Seen
    ) throws -> InterruptedRun<Seen> {
        let process = Process()
        process.executableURL = binaryURL
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path].merging(environment) { _, given in given }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !isReady() && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(isReady(), "the run got where it should be interrupted")
        let seen = try whileRunning(process.processIdentifier)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return InterruptedRun(status: process.terminationStatus, stderr: stderr, seen: seen)
    }

    /// `EnvironmentAllowance.environmentVariable`.
    package static let allowedVariablesName = "MOYA_ALLOW_ENV"

    /// The binary next to the test bundle (`.build/<triple>/debug/moya-cli`), or `$MOYA_CLI_BINARY`.
    package static var binaryURL: URL {
        if let override = ProcessInfo.processInfo.environment["MOYA_CLI_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("moya-cli")
    }

    /// The repository root (for the shipped `targets/`).
    package static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Runs `moya-cli arguments...` (or `binary`, a copy installed elsewhere) and waits at most
    /// `timeout` seconds.
    ///
    /// The environment starts empty but for PATH and HOME (a temporary folder), so a developer's
    /// own target files or variables never leak into a test; `environment` adds to it.
    package static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        currentDirectory: URL? = nil,
        stdin: Data? = nil,
        timeout: TimeInterval = 60,
        binary: URL? = nil,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = binary ?? binaryURL
        process.arguments = arguments
        var env: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": FileManager.default.temporaryDirectory.appendingPathComponent("moya-cli-test-home").path
        ]
        env.merge(environment) { _, new in new }
        // A variable a test sets is one its user set for the run: the test's target files (in
        // folders nobody trusts) may read it, as a user allows with MOYA_ALLOW_ENV. A test that
        // sets MOYA_ALLOW_ENV itself decides alone (the tests of the rule do).
        if environment[allowedVariablesName] == nil {
            let settings: Set = ["PATH", "HOME", "MOYA_TRUSTED_TARGETS", "MOYA_TARGETS_PATH"]
            let given = environment.keys.filter { !settings.contains($0) }.sorted()
            if !given.isEmpty { env[allowedVariablesName] = given.joined(separator: ":") }
        }
        process.environment = env
        process.currentDirectoryURL = currentDirectory ?? FileManager.default.temporaryDirectory
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try inPipe.fileHandleForWriting.close()

        // Read both pipes concurrently so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = outPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            XCTFail(
                "moya-cli \(arguments.joined(separator: " ")) did not finish within \(timeout) s", file: file,
                line: line)
            group.wait()
        }
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            stdoutData: outData
        )
    }

    /// Runs `command` with `/bin/sh -c` in `folder`, as a user pasting it would (a `curl` line
    /// that `moya-cli curl` printed, say). The environment is PATH, HOME (the folder) and `environment`.
    package static func runShell(_ command: String, in folder: URL, environment: [String: String] = [:]) throws
        -> CLIResult
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command.trimmingCharacters(in: .newlines)]
        process.currentDirectoryURL = folder
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder.path
        ]
        .merging(environment) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes at once so a large output cannot block the child.
        nonisolated(unsafe) var outData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = output.fileHandleForReading.readDataToEndOfFile() }
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }
}

/// A temporary folder removed when the test ends.
package final class TemporaryFolder {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("moya-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` inside the folder (creating subfolders) and returns its URL.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
