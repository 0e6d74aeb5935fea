import MoyaKit
import OrderedJSON
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--format json` on a pipe or file: the envelope `ResponseWriter.envelope` describes, compact,
/// written piece by piece. The body goes out straight from its bytes — JSON written again
/// compact (`JSONSpan`), text (in its declared charset, `TextCharset`, or UTF-8) escaped, anything else in base64 — a chunk at a time, so a body of
/// hundreds of megabytes is neither parsed into a tree nor held again as one string.
struct EnvelopeWriter {
    /// The members before the body, in order.
    var head: [(String, JSONValue)]
    /// The members after the body: `timing` (with `--output`, `output` before it).
    var tail: [(String, JSONValue)]
    /// The response's `Content-Type`, whose charset decodes a text body (`TextCharset`).
    var contentType: String?

    /// Bytes of base64 encoded at a time: a multiple of 3, so only the last piece has padding.
    static let base64Chunk = 3 << 14
    /// Bytes of text escaped at a time.
    static let textChunk = 1 << 16

    func write(body: Data) {
        // The head members as an object, without its closing brace: the rest follows.
        var text = JSONValue.object(head).serializedBytes()
        text.removeLast()
        text.append(contentsOf: #","body":"#.utf8)
        emit(&text)
        if body.isEmpty {
            text.append(contentsOf: #"null,"bodyBase64":null"#.utf8)
        } else if let json = try? JSONSpan(validating: body) {
            json.writeCompact { StandardStream.output.write($0) }
            text.append(contentsOf: #","bodyBase64":null"#.utf8)
        } else if let decoded = TextCharset.decode(body, contentType: contentType) {
            writeQuotedText(Data(decoded.utf8))
            text.append(contentsOf: #","bodyBase64":null"#.utf8)
        } else if UTF8Validation.isValid(body) {
            writeQuotedText(body)
            text.append(contentsOf: #","bodyBase64":null"#.utf8)
        } else {
            text.append(contentsOf: #"null,"bodyBase64":""#.utf8)
            emit(&text)
            var offset = body.startIndex
            while offset < body.endIndex {
                let end = min(offset + Self.base64Chunk, body.endIndex)
                StandardStream.output.write(body[offset..<end].base64EncodedString())
                offset = end
            }
            text.append(UInt8(ascii: "\""))
        }
        // The tail members as an object, without its opening brace, after a comma.
        var tailText = JSONValue.object(tail).serializedBytes()
        tailText.removeFirst()
        text.append(UInt8(ascii: ","))
        text.append(contentsOf: tailText)
        text.append(contentsOf: "\n".utf8)
        emit(&text)
    }

    /// `body` (UTF-8) as a JSON string, escaped a piece at a time.
    private func writeQuotedText(_ body: Data) {
        var piece: [UInt8] = [UInt8(ascii: "\"")]
        body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + Self.textChunk, bytes.count)
                JSONStringEscaping.appendEscaped(UnsafeBufferPointer(rebasing: bytes[offset..<end]), to: &piece)
                emit(&piece)
                offset = end
            }
        }
        piece.append(UInt8(ascii: "\""))
        emit(&piece)
    }

    private func emit(_ bytes: inout [UInt8]) {
        StandardStream.output.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
