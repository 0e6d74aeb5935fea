import NIOCore

/// Watches the bytes a connection sends, before the HTTP decoder: from the first byte of a request
/// head, the head must be complete within `seconds`, or `Expired` is sent up the pipeline (the
/// HTTP handler answers 408 and closes). The idle timeout alone lets a client that drips a header
/// line every few seconds hold its connection for ever.
///
/// The HTTP handler tells it where the request is (`headArrived()`, `requestEnded()`); it lives
/// on the connection's event loop, as both handlers do.
final class HeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The event sent up when a head took too long.
    struct Expired {}

    private let seconds: Double
    /// Between requests: the next byte starts a head, and the clock.
    private var awaitingHead = true
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(seconds: Double) {
        self.seconds = seconds
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if awaitingHead, timer == nil {
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1_000_000_000))) {
                let (deadline, context) = loopBound.value
                deadline.timer = nil
                context.fireUserInboundEventTriggered(Expired())
            }
        }
        context.fireChannelRead(data)
    }

    /// A whole head was decoded: its body is not timed here (bounded by size and idleness).
    func headArrived() {
        awaitingHead = false
        timer?.cancel()
        timer = nil
    }

    /// The request's last part was decoded: the next byte starts the next head.
    func requestEnded() {
        awaitingHead = true
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}
