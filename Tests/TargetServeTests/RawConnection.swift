import Foundation
import XCTest

/// A client that writes whatever bytes a test wants, as a hostile or clumsy client would, and
/// reads what comes back; every read and write gives up after a bound, so a test never hangs.
final class RawConnection {
    let descriptor: Int32

    init(port: Int, readTimeout: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A server that stops reading a client that never reads makes a send wait: bounded too.
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text`; `false` when the server took not all of it within the bound.
    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// No more requests: the client half-closes its side.
    func shutdownWriting() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Everything until the server closes (or the read times out), and the error that ended it
    /// (`nil` for an orderly close).
    func readToEnd() -> (bytes: [UInt8], error: Int32?) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return (received, nil) }
            if count < 0 { return (received, errno) }
            received += buffer[0..<count]
        }
    }

    /// One response: its head and its Content-Length's body; `nil` when the connection ends first.
    func readResponse() -> (head: String, body: String)? {
        var received = pending
        pending = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = Self.headEnd(in: received) {
                let head = String(decoding: received[..<end], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count - end - 4 >= length {
                    let body = String(decoding: received[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                    pending = Array(received[(end + 4 + length)...])
                    return (head, body)
                }
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            received += buffer[0..<count]
        }
    }

    /// Bytes read past the last response (a pipelined one's).
    private var pending: [UInt8] = []

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
