import NIOCore
import NIOHTTP1

/// A connection over `ServeLimits.maximumConnections`: answered 503 with `Retry-After` as soon as
/// it is open, without reading its request, and closed; the connections already open go on.
final class RefusedConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let shared: ServeShared

    init(shared: ServeShared) {
        self.shared = shared
    }

    func channelActive(context: ChannelHandlerContext) {
        var response = ServeResponder.error(
            503, ["error": "the server has \(shared.limits.maximumConnections) connections open; retry later"])
        response.headers.append(("Retry-After", "1"))
        let bytes = PreparedResponse(response).encoded(
            isHead: false, keepAlive: false, version: .http1_1, allocator: context.channel.allocator)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
        shared.log("- - - 503 (\(shared.limits.maximumConnections) connections open)")
    }

    /// Its request is not read: dropped.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
