import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An HTTPS server on 127.0.0.1 for TLS tests: `openssl s_server -www` run as a child process,
/// with a throw-away certificate authority and a server certificate for 127.0.0.1 and localhost.
///
/// `GET /` (any path, in fact) answers 200 with an HTML status page. Serves one connection at a
/// time. With `requiresClientCertificate`, the handshake demands a client certificate the same
/// authority signed (`clientCertificateFile`/`clientKeyFile` is one).
public final class TLSTestServer: @unchecked Sendable {
    /// Why the server could not start (tests skip on this when `openssl` is missing).
    public struct StartError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// The `openssl` executable, if one is on the usual paths.
    public static var opensslPath: String? {
        ["/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The port the server listens on.
    public let port: UInt16
    /// `https://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The PEM file of the authority that signed the server's certificate (for `--cacert`).
    public let certificateAuthorityFile: String
    /// A client certificate the authority signed (`extendedKeyUsage=clientAuth`), for `--cert`.
    public let clientCertificateFile: String
    /// The client certificate's private key (unencrypted), for `--key`.
    public let clientKeyFile: String
    /// Whether the server refuses clients that present no certificate the authority signed.
    public let requiresClientCertificate: Bool
    private let folder: URL
    private let process: Process
    /// The server's certificate (PEM).
    public let serverCertificateFile: String

    /// The server's public key as curl pins it: `sha256//` and the base64 SHA-256 of its DER
    /// SubjectPublicKeyInfo (computed by openssl, not by what is tested).
    public func publicKeyPin() throws -> String {
        guard let openssl = Self.opensslPath else { throw StartError(description: "openssl is not installed") }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = [
            "-c",
            "\"$0\" x509 -in \"$1\" -pubkey -noout | \"$0\" pkey -pubin -outform der | \"$0\" dgst -sha256 -binary | base64",
            openssl, serverCertificateFile
        ]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        let hash = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard shell.terminationStatus == 0, hash.count == 44 else {
            throw StartError(description: "openssl could not hash the server's public key")
        }
        return "sha256//" + hash
    }

    /// Creates the certificates in a temporary folder and starts the server; with
    /// `requiresClientCertificate`, it asks for a client certificate and fails the handshake
    /// (`-Verify 1 -CAfile ca.pem -verify_return_error`) unless the client presents one the
    /// authority signed for client authentication.
    public init(requiresClientCertificate: Bool = false) throws {
        guard let openssl = Self.opensslPath else { throw StartError(description: "openssl is not installed") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moyakit-tls-\(UUID().uuidString)")
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificates: Certificates
        do {
            certificates = try Self.makeCertificates(in: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        certificateAuthorityFile = certificates.authorityFile
        serverCertificateFile = certificates.serverCertificateFile
        clientCertificateFile = certificates.clientCertificateFile
        clientKeyFile = certificates.clientKeyFile
        self.requiresClientCertificate = requiresClientCertificate
        // `-Verify` (capital V) makes a missing client certificate fatal (`-verify` would only ask
        // for one); without `-verify_return_error`, s_server would still accept a certificate
        // that fails verification (another authority's, or one not meant for clients).
        let clientVerification =
            requiresClientCertificate
            ? ["-Verify", "1", "-CAfile", certificates.authorityFile, "-verify_return_error"] : []

        var lastError = "no free port"
        for _ in 0..<5 {
            let candidate = try Self.freePort()
            let server = Process()
            server.executableURL = URL(fileURLWithPath: openssl)
            server.arguments =
                [
                    "s_server", "-accept", "127.0.0.1:\(candidate)", "-cert", certificates.serverCertificateFile,
                    "-key", certificates.serverKeyFile, "-www", "-quiet"
                ] + clientVerification
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            if Self.waitUntilListening(port: candidate, while: { server.isRunning }) {
                process = server
                port = candidate
                guard let url = URL(string: "https://127.0.0.1:\(candidate)") else { break }
                baseURL = url
                return
            }
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
            lastError = "openssl s_server did not start on port \(candidate)"
        }
        try? FileManager.default.removeItem(at: folder)
        throw StartError(description: lastError)
    }

    deinit {
        stop()
    }

    /// Stops the server and removes the certificates.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The PEM files of a throw-away certificate authority and of a server and a client
    /// certificate it signed.
    public struct Certificates: Sendable {
        /// The authority's certificate: what clients trust (`--cacert`).
        public let authorityFile: String
        /// The server's certificate, valid for 127.0.0.1 and localhost.
        public let serverCertificateFile: String
        /// The server certificate's private key (unencrypted).
        public let serverKeyFile: String
        /// A client certificate (`extendedKeyUsage=clientAuth`, CN "MoyaKit Test Client").
        public let clientCertificateFile: String
        /// The client certificate's private key (unencrypted).
        public let clientKeyFile: String
    }

    /// Creates, in `folder`, a certificate authority valid for two days, a server certificate it
    /// signed for 127.0.0.1 and localhost, and a client certificate it signed (P-256 keys: fast
    /// to generate). Any TLS server a test starts can use them; the caller removes the folder.
    public static func makeCertificates(in folder: URL) throws -> Certificates {
        guard let openssl = opensslPath else { throw StartError(description: "openssl is not installed") }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try Data(
            """
            subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:api.moya.test
            basicConstraints=CA:FALSE
            keyUsage=digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth

            """.utf8
        ).write(to: folder.appendingPathComponent("leaf.ext"))
        try Data(
            """
            basicConstraints=CA:FALSE
            keyUsage=digitalSignature
            extendedKeyUsage=clientAuth

            """.utf8
        ).write(to: folder.appendingPathComponent("client.ext"))
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            openssl,
            ["req", "-x509"] + curve + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"),
                "-days", "2", "-subj", "/CN=MoyaKit Test CA"
            ])
        try run(
            openssl, ["req"] + curve + ["-keyout", path("leaf.key"), "-out", path("leaf.csr"), "-subj", "/CN=127.0.0.1"]
        )
        try run(
            openssl,
            [
                "x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-CAcreateserial", "-out", path("leaf.pem"), "-days", "2", "-extfile", path("leaf.ext")
            ])
        try run(
            openssl,
            ["req"] + curve + [
                "-keyout", path("client.key"), "-out", path("client.csr"), "-subj", "/CN=MoyaKit Test Client"
            ])
        try run(
            openssl,
            [
                "x509", "-req", "-in", path("client.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-CAcreateserial", "-out", path("client.pem"), "-days", "2", "-extfile", path("client.ext")
            ])
        return Certificates(
            authorityFile: path("ca.pem"), serverCertificateFile: path("leaf.pem"), serverKeyFile: path("leaf.key"),
            clientCertificateFile: path("client.pem"), clientKeyFile: path("client.key"))
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StartError(description: "openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(text)")
        }
    }

    /// 127.0.0.1 at `port`, as a socket address.
    package static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A port on 127.0.0.1 that was free a moment ago (another process may still take it first,
    /// so servers retry on a bind failure).
    package static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else { throw StartError(description: "cannot find a free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts connections on 127.0.0.1:`port` within 10 s, polling while
    /// `alive` (the server process) holds.
    static func waitUntilListening(port: UInt16, while alive: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && alive() {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = loopback(port: port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(descriptor)
            if connected == 0 { return true }
            usleep(50_000)
        }
        return false
    }
}
