#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Takes a response body as it arrives, so a body of any size passes through a fixed amount of
/// memory (the command line streams bodies to stdout or a file this way).
///
/// The transport calls `begin` once per exchange, with the final head (after redirects), before
/// the first byte of the body, or when the exchange ends if it has none; then `consume` with each
/// piece, in order, on the thread driving the transfer. A stubbed request goes through the same
/// calls with its sample's body.
public protocol ResponseBodyConsumer: AnyObject, Sendable {
    /// Says whether this consumer takes the body of the response whose head is `head`: `false`
    /// discards it (say, an answer that will be retried and is not to be shown).
    /// - Throws: to fail the request with that error (a destination that cannot be opened).
    func begin(_ head: HTTPResponseHead) throws(TransportError) -> Bool

    /// Takes the next bytes of the body.
    /// - Throws: to abort the transfer with that error (a failed write).
    func consume(_ bytes: UnsafeRawBufferPointer) throws(TransportError)
}

/// What becomes of a response body.
public enum ResponseBodyHandling: Sendable {
    /// Kept whole in `Response.data`; past `limit` bytes the request fails with a
    /// `TransportError` of kind `.responseTooLarge` instead of exhausting memory.
    case collect(limit: Int?)
    /// Read and dropped; `Response.bodyLength` still tells its size.
    case discard
    /// Not read at all: the transfer ends once the final head is in (after redirects and
    /// interim answers), and succeeds with that head (`--headers-only`, on an endless body too).
    case headOnly
    /// Handed to `consumer` as it arrives; `Response.data` keeps only the first `keepingPrefix`
    /// bytes (for logs), `Response.bodyLength` the whole size.
    case stream(to: any ResponseBodyConsumer, keepingPrefix: Int)

    /// The default: the whole body in memory, as in Moya.
    public static let collectAll = ResponseBodyHandling.collect(limit: nil)

    /// What identical requests in flight must share to share one exchange: a stream has one
    /// consumer and is never shared.
    package var sharingKey: String? {
        switch self {
        case .collect(let limit): "collect:\(limit.map(String.init) ?? "-")"
        case .discard: "discard"
        case .headOnly: "head"
        case .stream: nil
        }
    }
}

/// Applies a `ResponseBodyHandling` to the bytes of one body, for the transport and for stubs.
package struct ResponseBodyAccumulator {
    private enum State {
        case undecided
        case collecting(limit: Int?)
        case discarding
        case streaming(any ResponseBodyConsumer, keepingPrefix: Int)
    }

    private let handling: ResponseBodyHandling
    private var state = State.undecided
    /// The bytes kept: the whole body, or the prefix of a streamed one.
    package private(set) var data = Data()
    /// The size of the whole body.
    package private(set) var length = 0

    package init(_ handling: ResponseBodyHandling) {
        self.handling = handling
    }

    /// Whether `begin` ran.
    var hasBegun: Bool {
        if case .undecided = state { return false }
        return true
    }

    /// Decides, with the final head, what happens to the body. Only a stream's consumer reads
    /// the head, so only then is it made (for the transport, reading the header lines).
    package mutating func begin(_ head: @autoclosure () -> HTTPResponseHead) throws(TransportError) {
        guard !hasBegun else { return }
        switch handling {
        case .collect(let limit): state = .collecting(limit: limit)
        case .discard, .headOnly: state = .discarding
        case .stream(let consumer, let prefix):
            state = try consumer.begin(head()) ? .streaming(consumer, keepingPrefix: prefix) : .discarding
        }
    }

    /// Takes the next bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        switch state {
        case .undecided:
            preconditionFailure("body bytes before the head")
        case .collecting(let limit):
            if let limit, length + bytes.count > limit {
                throw TransportError(
                    kind: .responseTooLarge,
                    message: "the response body is larger than \(ByteCount.describe(limit)), the most kept in memory")
            }
            data.append(contentsOf: bytes)
        case .discarding:
            break
        case .streaming(let consumer, let prefix):
            if data.count < prefix { data.append(contentsOf: bytes.prefix(prefix - data.count)) }
            try consumer.consume(bytes)
        }
        length += bytes.count
    }

    /// Takes `data` whole (a stub's body).
    package mutating func append(_ data: Data) throws(TransportError) {
        try TransportError.withBytes(of: data) { (bytes) throws(TransportError) in try append(bytes) }
    }
}

extension TransportError {
    /// What a `ResponseBodyConsumer` throws once it has all it wants (a number of events): the
    /// transfer ends there and succeeds, with the body taken so far.
    public static let bodyEndedByReader = TransportError(kind: .other, message: "the body was ended by its reader")
}

/// Sizes in the units people read.
package enum ByteCount {
    /// `512 bytes`, `64 KiB`, `256 MiB`, `1.5 GiB`.
    package static func describe(_ count: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard count >= 1024 else { return "\(count) byte\(count == 1 ? "" : "s")" }
        var value = Double(count)
        var unit = "bytes"
        for next in units where value >= 1024 {
            value /= 1024
            unit = next
        }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) \(unit)" : "\(rounded) \(unit)"
    }
}
