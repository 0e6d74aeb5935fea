import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 for tests, with httpbin-like routes (see `HTTPTestServer+Routes`).
///
/// ```swift
/// let server = try HTTPTestServer()
/// defer { server.stop() }
/// let url = server.url("/get?a=1")
/// ```
/// Each accepted connection gets its own thread (at most `maximumConnections` at a time; more are
/// closed at once) and keep-alive. Every request is recorded in `receivedRequests`.
public final class HTTPTestServer: @unchecked Sendable {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public let description: String
    }

    /// How much of each request body `receivedRequests` keeps, unless the server is told otherwise.
    public static let recordedBodyLimit = 64 * 1024 * 1024

    /// The port the server listens on.
    public let port: UInt16
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The most connections served at a time.
    public let maximumConnections: Int
    /// How much of each request body this server's `receivedRequests` keeps.
    public let bodyRecordingLimit: Int

    private let listener: Int32
    private let state = NSCondition()
    // Guarded by `state`:
    private var requests: [ReceivedRequest] = []
    private var openConnections: Set<Int32> = []
    private var acceptedCount = 0
    private var runningThreads = 0
    private var stopped = false
    /// Gates opened by `openGate` or `/gate/NAME` (see `HTTPTestServer+Trickle`).
    private var openGates: Set<String> = []

    /// Starts listening on an ephemeral port of `address`, a loopback address (127.0.0.2 gives a
    /// second host for tests of what crosses from one host to another).
    /// - Parameter bodyRecordingLimit: How much of each request body to keep (0 for memory
    ///   measurements, where the server shares the process with the client).
    public init(
        address: String = "127.0.0.1", maximumConnections: Int = 128,
        bodyRecordingLimit: Int = HTTPTestServer.recordedBodyLimit
    ) throws {
        // Writing to a socket the client closed must fail with EPIPE, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = 0
        socketAddress.sin_addr.s_addr = inet_addr(address)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw StartError(description: "bind/listen on \(address): \(reason)")
        }
        let named = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            close(descriptor)
            throw StartError(description: "getsockname: \(String(cString: strerror(errno)))")
        }
        let port = UInt16(bigEndian: socketAddress.sin_port)
        guard let baseURL = URL(string: "http://\(address):\(port)") else {
            close(descriptor)
            throw StartError(description: "no URL for port \(port)")
        }
        listener = descriptor
        self.port = port
        self.baseURL = baseURL
        self.maximumConnections = maximumConnections
        self.bodyRecordingLimit = bodyRecordingLimit
        startThread { [self] in acceptConnections() }
    }

    deinit {
        stop()
    }

    /// `baseURL` followed by `pathAndQuery`, e.g. `url("/get?a=1")`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery) ?? baseURL
    }

    /// Every request received so far, in arrival order.
    public var receivedRequests: [ReceivedRequest] {
        state.lock()
        defer { state.unlock() }
        return requests
    }

    /// How many connections the server has accepted.
    public var acceptedConnectionCount: Int {
        state.lock()
        defer { state.unlock() }
        return acceptedCount
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool {
        state.lock()
        defer { state.unlock() }
        return stopped
    }

    /// Stops listening, closes every connection and waits (up to 5 s) for their threads to end.
    public func stop() {
        state.lock()
        if stopped {
            state.unlock()
            return
        }
        stopped = true
        // shutdown, not close: it wakes the threads blocked on these sockets without letting the
        // descriptor numbers be reused while they still hold them. Each thread closes its own.
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in openConnections { shutdown(descriptor, Int32(SHUT_RDWR)) }
        state.broadcast()
        let deadline = Date().addingTimeInterval(5)
        while runningThreads > 0 && state.wait(until: deadline) {}
        state.unlock()
    }

    /// Sleeps for `seconds` unless the server stops first; returns false if it stopped.
    func sleep(seconds: Double) -> Bool {
        state.lock()
        defer { state.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while !stopped && state.wait(until: deadline) {}
        return !stopped
    }

    /// Opens the gate `name`: the routes waiting on it go on.
    public func openGate(_ name: String) {
        state.lock()
        openGates.insert(name)
        state.broadcast()
        state.unlock()
    }

    /// Whether the gate `name` is open (a route opens one to say what it saw: `endless-closed`).
    public func isGateOpen(_ name: String) -> Bool {
        state.lock()
        defer { state.unlock() }
        return openGates.contains(name)
    }

    /// Waits until the gate `name` opens; false if the server stopped first or a minute passed
    /// (a test that never opens it then fails rather than hangs).
    func waitForGate(_ name: String) -> Bool {
        state.lock()
        defer { state.unlock() }
        let deadline = Date().addingTimeInterval(60)
        while !stopped && !openGates.contains(name) && state.wait(until: deadline) {}
        return openGates.contains(name) && !stopped
    }

    // MARK: - Threads

    private func startThread(_ body: @escaping @Sendable () -> Void) {
        state.lock()
        runningThreads += 1
        state.unlock()
        let thread = Thread { [self] in
            body()
            state.lock()
            runningThreads -= 1
            state.broadcast()
            state.unlock()
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    private func acceptConnections() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if isStopped { return }
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Out of descriptors, say: back off rather than spin.
                usleep(10_000)
                continue
            }
            state.lock()
            guard !stopped, openConnections.count < maximumConnections else {
                state.unlock()
                close(client)
                continue
            }
            openConnections.insert(client)
            acceptedCount += 1
            let number = acceptedCount
            state.unlock()
            var noDelay: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            startThread { [self] in
                serve(ServerConnection(descriptor: client, number: number, recordedBodyLimit: bodyRecordingLimit))
            }
        }
    }

    private func serve(_ connection: ServerConnection) {
        defer {
            state.lock()
            openConnections.remove(connection.descriptor)
            state.unlock()
            close(connection.descriptor)
        }
        while !isStopped {
            switch connection.readRequest(beforeBody: { self.holdUpload(target: $0) }) {
            case .closed:
                return
            case .malformed(let status):
                connection.send(
                    Array("HTTP/1.1 \(status) Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                return
            case .request(let request):
                state.lock()
                requests.append(request)
                state.unlock()
                let keepAlive = Self.wantsKeepAlive(request)
                guard respond(to: request, on: connection, keepAlive: keepAlive), keepAlive else { return }
            }
        }
    }

    private static func wantsKeepAlive(_ request: ReceivedRequest) -> Bool {
        let connection = request.value(of: "Connection")?.lowercased() ?? ""
        if request.version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return !connection.contains("close")
    }
}
