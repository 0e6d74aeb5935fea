import Foundation
import XCTest

/// The built `moya-cli`, run as a user runs it: real arguments, working directory and environment.
enum GeneratedBinary {
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// The binary next to the test bundle, or `$MOYA_CLI_BINARY`.
    static var url: URL {
        if let override = ProcessInfo.processInfo.environment["MOYA_CLI_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "moya-cli")
    }

    /// The repository root.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `moya-cli arguments` in `folder`, with HOME there and PATH and `environment` alone.
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path].merging(environment) { _, given in given }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while it runs, so a large output cannot fill one and stall it.
        let errorText = Locked(Data())
        let reader = Thread { errorText.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1_000) }
        return Run(
            status: process.terminationStatus, stdout: stdout, stderr: String(decoding: errorText.get(), as: UTF8.self))
    }
}

/// A value shared with a reader thread.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value {
        lock.withLock { value }
    }

    func set(_ newValue: Value) {
        lock.withLock { value = newValue }
    }
}
