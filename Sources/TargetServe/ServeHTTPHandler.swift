import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// One connection's requests: the body gathered (bounded), the answer worked out by the
/// responder, delayed on the event loop, written (encoded here, as one buffer), logged. Protocol
/// errors are answered here too (400, 431 for an oversized head) and close the connection.
/// Pipelined requests are answered in order: while an answer waits (`--delay`), the requests
/// after it wait too, and the connection is not read.
final class ServeHTTPHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let shared: ServeShared
    /// The clock of the request heads, told where each request is.
    private let headDeadline: HeadDeadline?
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// The bytes of `shared.bodyBudget` this connection holds: its body's, until it is answered.
    private var reserved = 0
    /// A 413 was sent: the rest of the request is dropped and the connection closes.
    private var refused = false
    /// A request is being answered (delayed, held): idleness is not the client's.
    private var busy = false
    private var started = NIODeadline.now()
    private var hold: Scheduled<Void>?
    private var heldRequest: (ServeRequest, String?)?

    /// An answer is scheduled, not yet written (`--delay`, a held request).
    private var answerPending = false
    /// The parts of the requests that came while an answer was pending, in order.
    private var waiting: [HTTPServerRequestPart] = []
    /// A read was asked for while an answer was pending.
    private var readPending = false
    /// A request's head came and its end has not: a malformed body is answered 400.
    private var readingRequest = false

    /// A live answer being written as it comes (`--proxy`), and how it is framed.
    private struct Streaming {
        var stream: ForwardedStream
        var status = 502
        var hasBody = false
        var chunked = false
        var closes = false
    }

    private var streaming: Streaming?

    init(shared: ServeShared, headDeadline: HeadDeadline? = nil) {
        self.shared = shared
        self.headDeadline = headDeadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head:
            headDeadline?.headArrived()
            readingRequest = true
        case .body: break
        case .end:
            headDeadline?.requestEnded()
            readingRequest = false
        }
        if answerPending {
            waiting.append(part)
        } else {
            handle(part, context: context)
        }
    }

    func read(context: ChannelHandlerContext) {
        if answerPending {
            readPending = true
        } else {
            context.read()
        }
    }

    /// The pending answer is written: the requests that waited are handled, and reading resumes.
    private func resume(context: ChannelHandlerContext) {
        answerPending = false
        while !waiting.isEmpty, !answerPending {
            handle(waiting.removeFirst(), context: context)
        }
        if readPending, !answerPending {
            readPending = false
            context.read()
        }
    }

    private func handle(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let requestHead):
            head = requestHead
            body = []
            releaseBody()
            refused = false
            busy = true
            started = .now()
            let length = requestHead.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
            if length > shared.limits.maximumBodySize {
                refuseBody(context: context)
            } else if requestHead.method == .CONNECT {
                // What follows a CONNECT head is a tunnel's bytes, not a body with an end: the
                // request is answered now, and the connection closed after.
                refused = true
                answer(requestHead, keepAlive: false, context: context)
            }
        case .body(var buffer):
            guard !refused else { return }
            guard body.count + buffer.readableBytes <= shared.limits.maximumBodySize else {
                refuseBody(context: context)
                return
            }
            guard shared.bodyBudget.reserve(buffer.readableBytes) else {
                refuseForNow(context: context)
                return
            }
            reserved += buffer.readableBytes
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard !refused, let head else { return }
            answer(head, keepAlive: head.isKeepAlive, context: context)
        }
    }

    private func request(from head: HTTPRequestHead) -> ServeRequest {
        ServeRequest(
            method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body)
    }

    private func answer(_ head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let request: ServeRequest
        let answer: ServeAnswer
        let caseName: String?
        let origin = head.headers.first(name: "origin")
        if let cors = shared.cors, head.method == .OPTIONS, let origin,
            head.headers.contains(name: "access-control-request-method")
        {
            request = self.request(from: head)
            (answer, caseName) = (.response(shared.responder.preflight(request, origin: origin, cors: cors)), nil)
        } else if body.isEmpty,
            let (response, name) = shared.responder.fixedAnswer(
                method: head.method.rawValue, target: head.uri, prefers: head.headers.contains(name: "prefer"))
        {
            // What the log reads of it: method and target.
            request = ServeRequest(method: head.method.rawValue, uri: head.uri, headers: [], body: [])
            (answer, caseName) = (.response(response), name)
        } else {
            request = self.request(from: head)
            (answer, caseName) = shared.responder.answer(request)
        }
        // The request holds the body now, until it is answered; the budget counts it till then.
        body = []
        let cors = shared.cors?.lines(origin: origin)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let perform: @Sendable () -> Void = {
            let (handler, context) = loopBound.value
            handler.perform(
                answer, for: request, caseName: caseName, keepAlive: keepAlive, cors: cors, context: context)
        }
        if shared.delay > 0, case .response = answer {
            answerPending = true
            context.eventLoop.scheduleTask(in: .nanoseconds(Int64(shared.delay * 1_000_000_000))) { perform() }
        } else {
            perform()
        }
    }

    private func perform(
        _ answer: ServeAnswer, for request: ServeRequest, caseName: String?, keepAlive: Bool, cors: String?,
        context: ChannelHandlerContext
    ) {
        switch answer {
        case .response(let response):
            releaseBody()
            // Logged first: a client that reads its answer finds the line written.
            log(
                request, caseName: caseName,
                outcome: response.logReason.map { "\(response.status) (\($0))" } ?? String(response.status))
            write(response, isHead: request.method == "HEAD", keepAlive: keepAlive, cors: cors, context: context)
        case .hold(let seconds):
            // The connection ends with the hold: nothing after it is read.
            answerPending = true
            heldRequest = (request, caseName)
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            hold = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1_000_000_000))) {
                let (handler, context) = loopBound.value
                handler.hold = nil
                handler.heldRequest = nil
                handler.releaseBody()
                handler.log(request, caseName: caseName, outcome: "timeout (closed after \(seconds) s)")
                context.close(promise: nil)
            }
        case .forward(let forwarded):
            releaseBody()
            guard let forwarder = shared.forwarder else { return }
            // Answered as the live API answers: the requests after it wait, as behind a delay.
            answerPending = true
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let eventLoop = context.eventLoop
            let stream = ForwardedStream { part, stream in
                eventLoop.execute {
                    let (handler, context) = loopBound.value
                    handler.receive(
                        part, of: stream, for: request, caseName: caseName, keepAlive: keepAlive, cors: cors,
                        context: context)
                }
            }
            streaming = Streaming(stream: stream)
            forwarder.forward(forwarded, to: stream)
        case .close(let reset):
            releaseBody()
            if reset, let provider = context.channel as? SocketOptionProvider {
                // Linger 0: close(2) sends RST instead of FIN, as a reset connection does.
                _ = provider.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            }
            log(request, caseName: caseName, outcome: reset ? "reset" : "closed")
            context.close(promise: nil)
        }
    }

    /// A piece of a live answer (`--proxy`), written as it comes: the head with the body chunked
    /// (or, to an HTTP/1.0 client, ended by closing), each piece of the body, the end.
    private func receive(
        _ part: ForwardedPart, of stream: ForwardedStream, for request: ServeRequest, caseName: String?,
        keepAlive: Bool, cors: String?, context: ChannelHandlerContext
    ) {
        guard var state = streaming, state.stream === stream else { return }
        switch part {
        case .failed(let note):
            streaming = nil
            var response = ServeResponder.error(502, ["error": "the live API did not answer"])
            response.logReason = note
            perform(
                .response(response), for: request, caseName: caseName, keepAlive: keepAlive, cors: cors,
                context: context)
        case .head(let status, let headers):
            let version = head?.version ?? .http1_1
            state.status = status
            state.hasBody = request.method != "HEAD" && !(100..<200).contains(status) && status != 204 && status != 304
            state.chunked = state.hasBody && version.minor >= 1
            state.closes = !keepAlive || (state.hasBody && !state.chunked)
            streaming = state
            let bytes = PreparedResponse.streamedHead(
                status: status, headers: headers.compactMap(ServeResponder.safeHeader), chunked: state.chunked,
                closes: state.closes, version: version, cors: cors, allocator: context.channel.allocator)
            context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
        case .body(let bytes):
            guard state.hasBody, !bytes.isEmpty else {
                stream.written(bytes.count)
                return
            }
            var buffer = context.channel.allocator.buffer(capacity: bytes.count + 16)
            if state.chunked { buffer.writeString(String(bytes.count, radix: 16) + "\r\n") }
            buffer.writeBytes(bytes)
            if state.chunked { buffer.writeStaticString("\r\n") }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in stream.written(bytes.count) }
            context.writeAndFlush(wrapOutboundOut(buffer), promise: written)
        case .end(let note, let complete):
            streaming = nil
            log(request, caseName: caseName, outcome: "\(state.status) (\(note))")
            busy = false
            var end = context.channel.allocator.buffer(capacity: 5)
            if complete, state.chunked { end.writeStaticString("0\r\n\r\n") }
            guard complete, !state.closes else {
                // A body broken off cannot be told otherwise: the connection ends short.
                waiting = []
                let done = context.eventLoop.makePromise(of: Void.self)
                context.writeAndFlush(wrapOutboundOut(end), promise: done)
                let channel = context.channel
                done.futureResult.whenComplete { _ in channel.close(promise: nil) }
                return
            }
            context.writeAndFlush(wrapOutboundOut(end), promise: nil)
            if answerPending { resume(context: context) }
        }
    }

    private func write(
        _ response: ServeResponse, isHead: Bool, keepAlive: Bool, cors: String? = nil, context: ChannelHandlerContext
    ) {
        let prepared = response.prepared ?? PreparedResponse(response)
        let bytes = prepared.encoded(
            isHead: isHead, keepAlive: keepAlive, version: head?.version ?? .http1_1, cors: cors,
            allocator: context.channel.allocator)
        busy = false
        guard !keepAlive else {
            context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
            if answerPending { resume(context: context) }
            return
        }
        waiting = []
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(bytes), promise: done)
        let channel = context.channel
        done.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    private func refuseBody(context: ChannelHandlerContext) {
        refused = true
        releaseBody()
        body = []
        if let head { log(request(from: head), caseName: nil, outcome: "413") }
        write(
            ServeResponder.error(413, ["error": "the body is larger than \(shared.limits.maximumBodySize) bytes"]),
            isHead: false, keepAlive: false, cors: refusalCORS, context: context)
    }

    /// The bodies held by all connections are at their bound: 503, as a busy server says it, and
    /// the connection closed (the rest of its body is not read).
    private func refuseForNow(context: ChannelHandlerContext) {
        refused = true
        releaseBody()
        body = []
        if let head { log(request(from: head), caseName: nil, outcome: "503") }
        var response = ServeResponder.error(
            503, ["error": "the server holds \(shared.limits.maximumHeldBodies) bytes of request bodies; retry later"])
        response.headers.append(("Retry-After", "1"))
        write(response, isHead: false, keepAlive: false, cors: refusalCORS, context: context)
    }

    /// The CORS lines of an answer the server gives before it routes (413, 503, 400, 408, 431), so
    /// that a page can read why: for the request's origin when its head came, else for none.
    private var refusalCORS: String? {
        shared.cors?.lines(origin: readingRequest || refused ? head?.headers.first(name: "origin") : nil)
    }

    private func releaseBody() {
        shared.bodyBudget.release(reserved)
        reserved = 0
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.close(promise: nil)
            return
        }
        // A request being answered (or waiting behind one) is not the one that broke: closed.
        guard !busy || (readingRequest && !answerPending && hold == nil) else {
            context.close(promise: nil)
            return
        }
        readingRequest = false
        let response =
            if case .headerOverflow = parserError {
                ServeResponder.error(
                    431, ["error": "the request head is larger than \(shared.limits.maximumHeaderSize) bytes"])
            } else {
                ServeResponder.error(400, ["error": "malformed request: \(parserError)"])
            }
        busy = true
        write(response, isHead: false, keepAlive: false, cors: refusalCORS, context: context)
        shared.log("- - - \(response.status) (\(parserError))")
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is HeadDeadline.Expired {
            guard !busy else {
                context.close(promise: nil)
                return
            }
            let seconds = Self.secondsText(shared.limits.headDeadline)
            busy = true
            write(
                ServeResponder.error(408, ["error": "the request head did not arrive whole within \(seconds) s"]),
                isHead: false, keepAlive: false, cors: refusalCORS, context: context)
            shared.log("- - - 408 (request head not whole within \(seconds) s)")
        } else if event is IdleStateHandler.IdleStateEvent, !busy, hold == nil {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The client is gone: the live transfer stops.
        streaming?.stream.cancel()
        streaming = nil
        if let hold, let (request, caseName) = heldRequest {
            hold.cancel()
            log(request, caseName: caseName, outcome: "timeout (client gone)")
        }
        hold = nil
        heldRequest = nil
        releaseBody()
        context.fireChannelInactive()
    }

    /// `20` for 20.0, `2.5` for 2.5: seconds as the options write them.
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    private func log(_ request: ServeRequest, caseName: String?, outcome: String) {
        let elapsed = Double((NIODeadline.now() - started).nanoseconds) / 1_000_000
        shared.log(shared.requestLog.line(for: request, caseName: caseName, outcome: outcome, milliseconds: elapsed))
    }
}
