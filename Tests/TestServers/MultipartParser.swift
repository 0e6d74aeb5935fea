import Foundation

/// One part of a `multipart/form-data` body, as the test server parsed it.
struct ParsedPart {
    var name: String?
    var fileName: String?
    var contentType: String?
    var content: Data
}

/// Splits a `multipart/form-data` body into parts (RFC 7578), for the echo routes.
enum MultipartParser {
    /// The parts of `body`, or nil if `contentType` is not multipart or the body does not parse.
    static func parts(of body: Data, contentType: String?) -> [ParsedPart]? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/"),
            let boundary = parameter("boundary", in: contentType)
        else { return nil }
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        var positions: [Int] = []
        var index = 0
        while let found = find(delimiter, in: bytes, from: index) {
            positions.append(found)
            index = found + delimiter.count
        }
        guard positions.count >= 2 else { return nil }
        var parts: [ParsedPart] = []
        for (start, end) in zip(positions, positions.dropFirst()) {
            // Skip the delimiter and its CRLF; the part ends before the CRLF preceding the next one.
            let partStart = start + delimiter.count + 2
            let partEnd = end - 2
            guard partStart <= partEnd, let headEnd = find(Array("\r\n\r\n".utf8), in: bytes, from: partStart),
                headEnd + 4 <= partEnd
            else { return nil }
            let head = String(decoding: bytes[partStart..<headEnd], as: UTF8.self)
            var part = ParsedPart(content: Data(bytes[(headEnd + 4)..<partEnd]))
            for line in head.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = parameter("name", in: line)
                    part.fileName = parameter("filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                }
            }
            parts.append(part)
        }
        return parts
    }

    /// The value of `name=value` or `name="value"` in a header value.
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.components(separatedBy: ";") {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
