import Foundation
import Synchronization
import XCTest

/// `moya-cli serve` running in the background as a user starts it, its stderr read as it comes;
/// started on `--port 0` unless the arguments name a port, and the port read from its first line.
package final class ServeProcess {
    package let process = Process()
    private let errors = Pipe()
    private final class Received: Sendable {
        let text = Mutex<String>("")
        /// When each piece of stderr came: the length of what had come by then (UTF-8 bytes), the time.
        let arrivals = Mutex<[(length: Int, time: Date)]>([])
    }

    private let received = Received()
    private let reader: Thread
    /// The port the server said it listens on.
    package private(set) var port = 0

    package init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws {
        process.executableURL = CLIRunner.binaryURL
        process.arguments = ["serve"] + arguments + (arguments.contains("--port") ? [] : ["--port", "0"])
        process.currentDirectoryURL = folder
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path].merging(environment) { _, given in given }
        process.standardError = errors
        process.standardOutput = Pipe()
        let handle = errors.fileHandleForReading
        let received = self.received
        reader = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                let now = Date()
                let length = received.text.withLock { text in
                    text += String(decoding: data, as: UTF8.self)
                    return text.utf8.count
                }
                received.arrivals.withLock { $0.append((length, now)) }
            }
        }
        try process.run()
        reader.start()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline, !stderr.contains("\n") { usleep(10_000) }
        if let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }),
            let text = line.split(separator: ":").last, let port = Int(text)
        {
            self.port = port
        }
    }

    /// What the server wrote to stderr so far.
    package var stderr: String { received.text.withLock { $0 } }

    /// When the piece of stderr that completed the first `text` it holds was read from the pipe;
    /// `nil` while it holds none.
    package func arrival(of text: String) -> Date? {
        let whole = stderr
        guard let range = whole.range(of: text) else { return nil }
        let end = whole.utf8.distance(from: whole.startIndex, to: range.upperBound)
        return received.arrivals.withLock { arrivals in arrivals.first { $0.length >= end }?.time }
    }

    /// Waits until stderr holds `text` (the log line of a request answered on another thread).
    package func waitFor(_ text: String) {
        let deadline = Date().addingTimeInterval(10)
        while !stderr.contains(text), Date() < deadline { usleep(10_000) }
    }

    /// Sends `signal` and waits for the exit: its status.
    package func stop(signal: Int32 = SIGINT) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        while reader.isExecuting { usleep(1000) }
        return process.terminationStatus
    }

    /// Ends the process that outlived its test.
    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// `/usr/bin/curl -s -i ARGUMENTS` against the server: status line, headers and body as curl
    /// received them.
    package func curl(_ path: String, _ arguments: [String] = []) throws -> String {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-i", "--max-time", "20"] + arguments + ["http://127.0.0.1:\(port)\(path)"]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether a listening socket can be bound to `port` on loopback now (SO_REUSEADDR, as a
    /// server binds).
    package static func canBind(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0 && listen(descriptor, 1) == 0
    }
}
