import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One accepted client socket: buffered reading of requests, and writing of responses.
///
/// Used by exactly one thread. Every failure (a reset, a malformed request, a stopped server)
/// ends in `nil` or `false`, never a crash: the test process must survive any client.
final class ServerConnection {
    /// What reading the next request produced.
    enum ReadResult {
        case request(ReceivedRequest)
        /// The client closed the connection cleanly between requests.
        case closed
        /// The bytes were not HTTP; the status to answer with before closing.
        case malformed(status: Int)
    }

    static let maximumHeadLength = 64 * 1024

    let descriptor: Int32
    let number: Int
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private let recordedBodyLimit: Int

    init(descriptor: Int32, number: Int, recordedBodyLimit: Int) {
        self.descriptor = descriptor
        self.number = number
        self.recordedBodyLimit = recordedBodyLimit
    }

    // MARK: - Reading

    /// Reads one whole request, body included; `beforeBody` runs with the request target once
    /// the head is read (a route may hold the body back there).
    func readRequest(beforeBody: (String) -> Void = { _ in }) -> ReadResult {
        guard let head = readHead() else {
            return buffered == 0 ? .closed : .malformed(status: 400)
        }
        guard let parsed = RequestHead(parsing: head) else { return .malformed(status: 400) }

        if parsed.value(of: "Expect")?.lowercased() == "100-continue" {
            guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .closed }
        }
        beforeBody(parsed.target)
        var body = Data()
        var length = 0
        let digest = parsed.target.hasPrefix("/sha256") ? StreamingDigest() : nil
        let isChunked = parsed.value(of: "Transfer-Encoding")?.lowercased().contains("chunked") ?? false
        let keep: (UnsafeRawBufferPointer) -> Void = { [recordedBodyLimit] piece in
            let room = max(0, recordedBodyLimit - body.count)
            if room > 0 { body.append(contentsOf: piece.prefix(room)) }
            digest?.update(piece)
            length += piece.count
        }
        if isChunked {
            guard readChunkedBody(into: keep) else { return .malformed(status: 400) }
        } else if let declared = parsed.value(of: "Content-Length") {
            guard let count = Int(declared.trimmingCharacters(in: .whitespaces)), count >= 0 else {
                return .malformed(status: 400)
            }
            guard readExactly(count, into: keep) else { return .closed }
        }
        var request = ReceivedRequest(
            method: parsed.method, target: parsed.target, version: parsed.version,
            headers: parsed.fields, rawHead: Data(head), body: body, bodyLength: length,
            isChunked: isChunked, connectionNumber: number)
        request.bodySHA256 = digest?.finish()
        return .request(request)
    }

    private var buffered: Int { buffer.count - bufferStart }

    /// Receives more bytes; false at end of stream or on error.
    private func fill() -> Bool {
        if bufferStart > 0 && bufferStart == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            bufferStart = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// The bytes up to and including the blank line ending a request head.
    private func readHead() -> [UInt8]? {
        // How many buffered bytes are known not to start the terminator; relative to
        // `bufferStart`, because `fill()` may move the buffered bytes to the front.
        var scanned = 0
        while true {
            if let end = findTerminator(from: bufferStart + scanned) {
                let head = Array(buffer[bufferStart..<end])
                bufferStart = end
                return head
            }
            guard buffered < Self.maximumHeadLength else { return nil }
            scanned = max(0, buffered - 3)
            guard fill() else { return nil }
        }
    }

    private func findTerminator(from start: Int) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = max(start, bufferStart)
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    private func readExactly(_ count: Int, into sink: (UnsafeRawBufferPointer) -> Void) -> Bool {
        var remaining = count
        while remaining > 0 {
            if buffered == 0 { guard fill() else { return false } }
            let take = min(remaining, buffered)
            buffer.withUnsafeBytes { sink(UnsafeRawBufferPointer(rebasing: $0[bufferStart..<(bufferStart + take)])) }
            bufferStart += take
            remaining -= take
        }
        return true
    }

    private func readLine() -> String? {
        while true {
            if let newline = buffer[bufferStart...].firstIndex(of: 10) {
                let line = String(decoding: buffer[bufferStart..<newline], as: UTF8.self)
                bufferStart = newline + 1
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard buffered < Self.maximumHeadLength, fill() else { return nil }
        }
    }

    private func readChunkedBody(into sink: (UnsafeRawBufferPointer) -> Void) -> Bool {
        while true {
            guard let sizeLine = readLine(),
                let size = Int(
                    sizeLine.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? "", radix: 16),
                size >= 0
            else { return false }
            if size == 0 {
                // Trailer fields, up to the blank line.
                while let trailer = readLine() {
                    if trailer.isEmpty { return true }
                }
                return false
            }
            guard readExactly(size, into: sink), let end = readLine(), end.isEmpty else { return false }
        }
    }

    /// Waits until the client sends something or hangs up, or `shouldStop` says so.
    /// Returns true when the client is gone.
    func waitForHangUp(shouldStop: () -> Bool) -> Bool {
        while !shouldStop() {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if ready > 0 {
                var scratch = [UInt8](repeating: 0, count: 4096)
                let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return true }
            } else if ready < 0 && errno != EINTR {
                return true
            }
        }
        return false
    }

    // MARK: - Writing

    /// Sends all of `bytes`; false if the client is gone.
    @discardableResult
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.send(
                descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }

    /// Sends all of `bytes`; false if the client is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send($0) }
    }
}

/// A parsed request line and header block.
struct RequestHead {
    let method: String
    let target: String
    let version: String
    let fields: [ReceivedRequest.Field]

    init?(parsing head: [UInt8]) {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/"),
            (requestLine[1].hasPrefix("/") || requestLine[1].hasPrefix("http://"))
        else { return nil }
        method = String(requestLine[0])
        target = String(requestLine[1])
        version = String(requestLine[2])
        var fields: [ReceivedRequest.Field] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = String(line[..<colon])
            guard !name.isEmpty, !name.contains(" ") else { return nil }
            fields.append(
                .init(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        self.fields = fields
    }

    func value(of name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
