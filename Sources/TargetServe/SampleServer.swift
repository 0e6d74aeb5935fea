import NIOCore
import NIOHTTP1
import NIOPosix
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

/// `moya-cli serve`: an HTTP/1.1 server on SwiftNIO answering the cases of the given APIs from
/// their samples, with one event loop per core.
package final class SampleServer: Sendable {
    /// Where and how to serve.
    package struct Configuration: Sendable {
        package var host = "127.0.0.1"
        /// 0 picks a free port (`port` tells which).
        package var port = 8080
        /// `--delay`, in seconds.
        package var delay: Double = 0
        /// `--sample NAME`.
        package var defaultSample: String?
        package var limits = ServeLimits()
        /// CORS as answered; `nil`: none (`--no-cors`).
        package var cors: CORSPolicy? = CORSPolicy()
        /// A case whose auth is not `none` asks for its credential: 401. Off unless asked for
        /// (`serve` asks, unless `--no-auth`).
        package var checksCredentials = false
        /// Request bodies are checked against their case: 400, 422 (`--no-validate`: off).
        package var checksBodies = true
        /// `--proxy`: what no case answers (and a case asked with `Prefer: proxy`) goes to the live API.
        package var forwarder: (any ServeForwarder)?

        package init() {}
    }

    private let shared: ServeShared
    private let configuration: Configuration
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// The port listened on.
    package let port: Int

    /// Routes the cases of `builders`' APIs and starts listening.
    ///
    /// - Throws: `ServeError`: clashing routes, a base URL that cannot be rendered, a `--sample`
    ///   no case has, an address that cannot be listened on.
    package init(
        builders: [TargetBuilder], configuration: Configuration, log: @escaping @Sendable (String) -> Void
    ) throws(ServeError) {
        let routes = try RouteTable(builders: builders)
        if let name = configuration.defaultSample,
            !routes.cases.contains(where: { served in served.spec.samples.contains { $0.name == name } })
        {
            var names: [String] = []
            for served in routes.cases {
                for sample in served.spec.samples where !names.contains(sample.name) { names.append(sample.name) }
            }
            throw .unknownSample(name, available: names)
        }
        var responder = ServeResponder(routes: routes, defaultSample: configuration.defaultSample)
        responder.maximumHold = configuration.limits.maximumHold
        responder.checksCredentials = configuration.checksCredentials
        responder.checksBodies = configuration.checksBodies
        responder.proxies = configuration.forwarder != nil
        let requestLog = RequestLog(builders: builders)
        responder.redactor = requestLog.redactor
        let shared = ServeShared(
            responder: responder, requestLog: requestLog, limits: configuration.limits,
            bodyBudget: BodyBudget(limit: configuration.limits.maximumHeldBodies), delay: configuration.delay,
            cors: configuration.cors, forwarder: configuration.forwarder, log: log)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let limits = configuration.limits
        let connections = ConnectionCount(limit: limits.maximumConnections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard connections.admit() else {
                        try channel.pipeline.syncOperations.addHandler(RefusedConnection(shared: shared))
                        return
                    }
                    channel.closeFuture.whenComplete { _ in connections.release() }
                    var decoderLimits = NIOHTTPDecoderLimitConfiguration()
                    decoderLimits.maxHeaderListSize = limits.maximumHeaderSize
                    decoderLimits.maxHeaderFieldSize = limits.maximumHeaderSize
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(
                        // Idle by what the client sends: watching writes too would cost a promise for
                        // each answer.
                        IdleStateHandler(readTimeout: .nanoseconds(Int64(limits.idleTimeout * 1_000_000_000))))
                    let headDeadline = HeadDeadline(seconds: limits.headDeadline)
                    try pipeline.addHandler(headDeadline)
                    // Answers are encoded by the handler (headers checked where they are made,
                    // `ServeResponder.safeHeader`), each as one buffer; pipelining is its too.
                    try pipeline.addHandler(
                        ByteToMessageHandler(
                            HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)))
                    try pipeline.addHandler(ServeHTTPHandler(shared: shared, headDeadline: headDeadline))
                }
            }
        do {
            channel = try bootstrap.bind(host: configuration.host, port: configuration.port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: Self.reason(error))
        }
        self.port = channel.localAddress?.port ?? configuration.port
        self.shared = shared
        self.configuration = configuration
        self.group = group
    }

    /// The served APIs' names, in order, once each.
    package static func apiNames(_ builders: [TargetBuilder]) -> [String] {
        var names: [String] = []
        for builder in builders where !names.contains(builder.api.name) { names.append(builder.api.name) }
        return names
    }

    /// Stops accepting, closes every connection and ends the event loops; `waitUntilStopped`
    /// returns then. Safe from any thread, more than once.
    package func stop() {
        channel.close(promise: nil)
    }

    /// Blocks until `stop()` (or the listening socket failing), then closes every connection.
    package func waitUntilStopped() {
        try? channel.closeFuture.wait()
        try? group.syncShutdownGracefully()
    }

    /// What went wrong listening, in words.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return "the address is in use (another server listens on this port)"
            case EADDRNOTAVAIL: return "the address is not one of this machine's"
            case EACCES: return "permission denied (ports below 1024 need privileges)"
            default: return error.description
            }
        }
        return "\(error)"
    }
}
