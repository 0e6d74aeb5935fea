import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// nginx on 127.0.0.1, run as a child process, for HTTP/2 tests: the in-process `HTTPTestServer`
/// speaks only HTTP/1.1.
///
/// Two listeners serve the same static files (see `NginxTestServer+Site`):
/// - `cleartextBaseURL`: HTTP/2 over cleartext with prior knowledge (h2c; HTTP/1.1 is refused),
/// - `secureBaseURL`: TLS offering HTTP/2 and HTTP/1.1 by ALPN, with a certificate that
///   `certificateAuthorityFile` signed.
///
/// Everything lives in a temporary prefix folder, removed by `stop()`. nginx runs as one process
/// (`master_process off`, `daemon off`) that `stop()` and `deinit` end; should the test process
/// die without stopping it, a watchdog shell ends it.
public final class NginxTestServer: @unchecked Sendable {
    /// Why the server could not start (tests skip on this when nginx or openssl is missing).
    public struct StartError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// One line of the access log: which connection served which request, and how.
    public struct AccessLogEntry: Sendable, Hashable {
        /// nginx's serial number of the connection (`$connection`), unique within the server.
        public let connection: Int
        /// The listener's port (`$server_port`).
        public let port: UInt16
        /// The protocol, e.g. `"HTTP/2.0"` or `"HTTP/1.1"` (`$server_protocol`).
        public let httpProtocol: String
        /// The response status.
        public let status: Int
        /// The path and query asked for (`$request_uri`).
        public let uri: String
    }

    /// The `nginx` executable, if one is on the usual paths.
    public static var nginxPath: String? {
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx", "/usr/local/nginx/sbin/nginx"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The port of the cleartext HTTP/2 (prior knowledge) listener.
    public let cleartextPort: UInt16
    /// The port of the TLS listener.
    public let securePort: UInt16
    /// `http://127.0.0.1:<cleartextPort>`: HTTP/2 with prior knowledge only.
    public let cleartextBaseURL: URL
    /// `https://127.0.0.1:<securePort>`.
    public let secureBaseURL: URL
    /// The PEM file of the authority that signed the TLS listener's certificate.
    public let certificateAuthorityFile: String

    private let folder: URL
    private let process: Process
    private let watchdog: Watchdog
    private let lock = NSLock()
    private var stopped = false

    /// Writes the site, certificates and configuration into a temporary folder and starts nginx.
    public init() throws {
        guard let nginx = Self.nginxPath else { throw StartError(description: "nginx is not installed") }
        guard TLSTestServer.opensslPath != nil else { throw StartError(description: "openssl is not installed") }
        // Writing to the watchdog's pipe must fail with EPIPE, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moyakit-nginx-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("temp"), withIntermediateDirectories: true)
            try Self.writeSite(in: folder.appendingPathComponent("www"))
            let certificates = try TLSTestServer.makeCertificates(in: folder)
            var lastError = "no free port"
            for _ in 0..<5 {
                let ports = try Self.twoFreePorts()
                let started = try Self.start(nginx, in: folder, ports: ports, certificates: certificates)
                guard let (process, watchdog) = started.value else {
                    lastError = started.failure
                    continue
                }
                guard let cleartext = URL(string: "http://127.0.0.1:\(ports.cleartext)"),
                    let secure = URL(string: "https://127.0.0.1:\(ports.secure)")
                else { break }
                self.folder = folder
                self.process = process
                self.watchdog = watchdog
                cleartextPort = ports.cleartext
                securePort = ports.secure
                cleartextBaseURL = cleartext
                secureBaseURL = secure
                certificateAuthorityFile = certificates.authorityFile
                return
            }
            throw StartError(description: lastError)
        } catch let error as TLSTestServer.StartError {
            try? FileManager.default.removeItem(at: folder)
            throw StartError(description: error.description)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit {
        stop()
    }

    /// Stops nginx (SIGTERM, then SIGKILL after 5 s) and removes the prefix folder. Safe to call
    /// more than once.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        Self.end(process)
        watchdog.dismiss()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `cleartextBaseURL` or `secureBaseURL` followed by `path` (which may carry a query).
    public func url(_ path: String, secure: Bool) -> URL {
        let base = secure ? secureBaseURL : cleartextBaseURL
        return URL(string: base.absoluteString + path) ?? base
    }

    /// The access log so far, oldest first.
    public var accessLog: [AccessLogEntry] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 5, let connection = Int(fields[0]), let port = UInt16(fields[1]),
                let status = Int(fields[3])
            else { return nil }
            return AccessLogEntry(
                connection: connection, port: port, httpProtocol: String(fields[2]), status: status,
                uri: String(fields[4]))
        }
    }

    /// The access log once it has at least `count` entries, or what it has after `seconds`.
    /// (nginx writes a line after sending the response, so a client can finish first.)
    public func accessLog(waitingFor count: Int, seconds: Double = 5) -> [AccessLogEntry] {
        let deadline = Date().addingTimeInterval(seconds)
        var entries = accessLog
        while entries.count < count && Date() < deadline {
            usleep(20_000)
            entries = accessLog
        }
        return entries
    }

    /// The text of nginx's error log (for failure messages).
    public var errorLog: String {
        (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    // MARK: - Starting and stopping

    /// A started nginx and its watchdog, or why it did not start.
    private struct Started {
        var value: (Process, Watchdog)?
        var failure: String
    }

    private static func twoFreePorts() throws -> (cleartext: UInt16, secure: UInt16) {
        let cleartext = try TLSTestServer.freePort()
        var secure = try TLSTestServer.freePort()
        while secure == cleartext { secure = try TLSTestServer.freePort() }
        return (cleartext, secure)
    }

    private static func start(
        _ nginx: String, in folder: URL, ports: (cleartext: UInt16, secure: UInt16),
        certificates: TLSTestServer.Certificates
    ) throws -> Started {
        let configuration = folder.appendingPathComponent("nginx.conf")
        try Data(
            configurationText(
                folder: folder, cleartextPort: ports.cleartext, securePort: ports.secure,
                certificates: certificates
            ).utf8
        ).write(to: configuration)
        // Messages from before the configuration is read (and a failed bind) land here.
        let startupLog = folder.appendingPathComponent("startup.log")
        _ = FileManager.default.createFile(atPath: startupLog.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = [
            "-c", configuration.path, "-p", folder.path + "/", "-e", folder.appendingPathComponent("error.log").path
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: startupLog)
        try process.run()
        let watchdog: Watchdog
        do {
            watchdog = try Watchdog(guarding: process.processIdentifier, folder: folder)
        } catch {
            end(process)
            throw error
        }
        let listening =
            TLSTestServer.waitUntilListening(port: ports.cleartext, while: { process.isRunning })
            && TLSTestServer.waitUntilListening(port: ports.secure, while: { process.isRunning })
        if listening && process.isRunning { return Started(value: (process, watchdog), failure: "") }
        end(process)
        watchdog.dismiss()
        let startup = (try? String(contentsOf: startupLog, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        return Started(
            value: nil,
            failure: "nginx did not start on ports \(ports.cleartext) and \(ports.secure): "
                + (startup + errors).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Ends `process`: SIGTERM (nginx's fast shutdown), SIGKILL if it is still there after 5 s.
    private static func end(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A shell that kills a process, and removes its folder, when the test process dies without
/// stopping it: it waits for a line on a pipe only the test process holds. `dismiss()` sends the
/// line; a crash closes the pipe instead, and the shell then cleans up.
private final class Watchdog: @unchecked Sendable {
    private let shell: Process
    private let pipe: Pipe

    init(guarding pid: Int32, folder: URL) throws {
        let shell = Process()
        let pipe = Pipe()
        // Children started later (another server, openssl) must not hold the write end open:
        // the shell would then never see the end of file.
        _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `read` fails only at end of file: the test process is gone without dismissing us.
        shell.arguments = [
            "-c", #"read line || { kill -9 "$1"; rm -rf "$2"; }"#, "nginx-watchdog", String(pid), folder.path
        ]
        shell.standardInput = pipe
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        self.shell = shell
        self.pipe = pipe
    }

    /// Lets the shell exit without killing anything, and waits for it.
    func dismiss() {
        try? pipe.fileHandleForWriting.write(contentsOf: Data("stopped\n".utf8))
        try? pipe.fileHandleForWriting.close()
        shell.waitUntilExit()
    }
}
