/// One event of a streamed body: a `text/event-stream` event (its `event:`, `id:` and `data:`
/// fields), or one line of JSON lines (`application/x-ndjson`, `application/jsonl`,
/// `application/json-seq`...), which has only data.
struct StreamEvent: Equatable {
    var name: String?
    var id: String?
    var data: String
}

/// Cuts a body into `StreamEvent`s as its bytes arrive: server-sent events (the WHATWG rules:
/// fields up to a blank line, `data:` lines joined by line breaks, comments skipped) or lines.
/// A line longer than `limit` bytes fails instead of growing without end.
struct StreamEventSplitter {
    enum Kind: Equatable {
        /// `text/event-stream`.
        case serverSentEvents
        /// JSON lines, or any body read as lines (`--stream`).
        case lines
    }

    let kind: Kind
    let limit: Int
    private var pending: [UInt8] = []
    private var name: String?
    private var id: String?
    private var data: [String] = []
    private var hasData = false

    init(kind: Kind, limit: Int) {
        self.kind = kind
        self.limit = limit
    }

    /// The kind of events a body of `contentType` holds, if any; `forcesLines`: any other body
    /// is read as lines (`--stream`).
    static func kind(contentType: String?, forcesLines: Bool) -> Kind? {
        let mediaType = MediaType.essence(contentType)
        if mediaType == "text/event-stream" { return .serverSentEvents }
        if isJSONLines(mediaType) || forcesLines { return .lines }
        return nil
    }

    /// JSON lines by any of their names (`application/x-ndjson`, `application/jsonl`,
    /// `application/json-seq`, `application/x-jsonlines`...), or a `+json-seq` suffix.
    static func isJSONLines(_ mediaType: String) -> Bool {
        [
            "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonl",
            "application/jsonlines", "application/x-jsonlines", "application/json-seq", "application/jsonlines+json"
        ].contains(mediaType) || mediaType.hasSuffix("+json-seq")
    }

    /// The events `bytes` completes.
    /// - Throws: `lineTooLong` when a line grows past `limit`.
    mutating func take(_ bytes: UnsafeRawBufferPointer) throws(LineTooLong) -> [StreamEvent] {
        var events: [StreamEvent] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            pending.append(contentsOf: bytes[start..<index])
            start = index + 1
            if let event = line(pending) { events.append(event) }
            pending.removeAll(keepingCapacity: true)
        }
        pending.append(contentsOf: bytes[start...])
        if pending.count > limit { throw LineTooLong(limit: limit) }
        return events
    }

    /// The event the body's end completes (a last line without its line break).
    mutating func finish() -> [StreamEvent] {
        var events: [StreamEvent] = []
        if !pending.isEmpty, let event = line(pending) { events.append(event) }
        pending.removeAll()
        if kind == .serverSentEvents, let event = line([]) { events.append(event) }
        return events
    }

    private mutating func line(_ raw: [UInt8]) -> StreamEvent? {
        var bytes = raw[...]
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        switch kind {
        case .lines:
            // json-seq (RFC 7464) starts each record with RS.
            while bytes.first == 0x1E { bytes = bytes.dropFirst() }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.allSatisfy(\.isWhitespace) ? nil : StreamEvent(name: nil, id: nil, data: text)
        case .serverSentEvents:
            if bytes.isEmpty {
                defer {
                    name = nil
                    data = []
                    hasData = false
                }
                return hasData ? StreamEvent(name: name, id: id, data: data.joined(separator: "\n")) : nil
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.hasPrefix(":") { return nil }
            let field: Substring
            var value: Substring
            if let colon = text.firstIndex(of: ":") {
                field = text[..<colon]
                value = text[text.index(after: colon)...]
                if value.first == " " { value = value.dropFirst() }
            } else {
                field = text[...]
                value = ""
            }
            switch field {
            case "data":
                data.append(String(value))
                hasData = true
            case "event": name = String(value)
            case "id": id = String(value)
            default: break
            }
            return nil
        }
    }

    /// A line longer than the limit.
    struct LineTooLong: Error {
        var limit: Int
    }
}

/// The type part of a Content-Type, lowercased, without parameters or spaces.
enum MediaType {
    static func essence(_ contentType: String?) -> String {
        guard let contentType else { return "" }
        return String(
            (contentType.split(separator: ";", maxSplits: 1).first ?? "").filter { $0 != " " && $0 != "\t" }
        ).lowercased()
    }
}
