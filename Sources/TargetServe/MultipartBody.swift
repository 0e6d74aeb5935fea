/// A `multipart/form-data` request body (RFC 7578) read as far as `serve` reads it: the boundary
/// from the Content-Type, each part's name (`Content-Disposition: form-data; name="..."`) and,
/// for a part without a file name, its bytes as text.
struct MultipartBody {
    /// The parts without a file name, as form fields, in order.
    private(set) var fields: [(name: String, value: String)] = []
    /// The names of every part, files too.
    private(set) var names: [String] = []

    /// `nil` when the request has no boundary in its Content-Type, or its body is not parts
    /// delimited by it and closed by its last delimiter.
    init?(request: ServeRequest) {
        guard let contentType = request.header("content-type"), let boundary = Self.boundary(in: contentType)
        else { return nil }
        let body = request.body
        let delimiter = Array("--\(boundary)".utf8)
        guard var position = Self.find(delimiter, in: body, from: 0) else { return nil }
        while true {
            position += delimiter.count
            // The closing delimiter: `--boundary--`.
            if body.count >= position + 2, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-")
            {
                return
            }
            guard let headStart = Self.lineEnd(in: body, from: position),
                let headEnd = Self.find(Array("\r\n\r\n".utf8), in: body, from: headStart - 2),
                let next = Self.find(Array("\r\n".utf8) + delimiter, in: body, from: headEnd + 4)
            else { return nil }
            let head = String(decoding: body[headStart..<max(headStart, headEnd)], as: UTF8.self)
            guard let disposition = Self.disposition(in: head), let name = disposition.name else { return nil }
            names.append(name)
            if disposition.fileName == nil {
                fields.append((name, String(decoding: body[(headEnd + 4)..<next], as: UTF8.self)))
            }
            position = next + 2
        }
    }

    /// The `boundary` parameter of a `multipart/...` Content-Type, unquoted.
    static func boundary(in contentType: String) -> String? {
        let parameters = contentType.split(separator: ";")
        guard let type = parameters.first, type.trimmingSpaces.lowercased().hasPrefix("multipart/") else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "boundary" else { continue }
            var value = String(pair[1].trimmingSpaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// The `name` and `filename` of a part's Content-Disposition header.
    private static func disposition(in head: String) -> (name: String?, fileName: String?)? {
        for line in head.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "content-disposition" else { continue }
            var name: String?
            var fileName: String?
            for parameter in pair[1].split(separator: ";").dropFirst() {
                let item = parameter.split(separator: "=", maxSplits: 1)
                guard item.count == 2 else { continue }
                var value = String(item[1].trimmingSpaces)
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                switch item[0].trimmingSpaces.lowercased() {
                case "name": name = value
                case "filename": fileName = value
                default: break
                }
            }
            return (name, fileName)
        }
        return nil
    }

    /// The index after the line break ending the line at `start`.
    private static func lineEnd(in body: [UInt8], from start: Int) -> Int? {
        find(Array("\r\n".utf8), in: body, from: start).map { $0 + 2 }
    }

    /// The first index of `needle` in `body` at or after `start`.
    private static func find(_ needle: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, body.count >= needle.count else { return nil }
        var index = start
        let last = body.count - needle.count
        while index <= last {
            if body[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where body[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
