/// A media type as the importer reads it (`Application/Problem+JSON; charset=utf-8`), asked of
/// every response and request body of a spec: compared in ASCII lower case, byte by byte
/// (`String.contains(_:)` of a string and `lowercased()` cost thousands of instructions a call).
struct MediaType {
    /// As the spec writes it.
    let text: String
    /// Lower case, without parameters and surrounding spaces: `application/problem+json`.
    let essence: String

    init(_ text: String) {
        self.text = text
        var bytes = Array(text.utf8.prefix { $0 != UInt8(ascii: ";") })
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        let start = bytes.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? bytes.endIndex
        essence = String(decoding: bytes[start...].map(Self.lowercased), as: UTF8.self)
    }

    /// Any JSON: `json` anywhere in the type, parameters included, as the importer has always read it.
    var mentionsJSON: Bool { Self.contains(text.utf8.lazy.map(Self.lowercased), "json") }

    var isPlainJSON: Bool { essence == "application/json" }

    var isText: Bool { essence.utf8.starts(with: "text/".utf8) }

    var isWildcard: Bool { text.utf8.contains(UInt8(ascii: "*")) }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Whether `needle` occurs in `bytes`.
    private static func contains(_ bytes: some Sequence<UInt8>, _ needle: String) -> Bool {
        let haystack = Array(bytes)
        let pattern = Array(needle.utf8)
        guard haystack.count >= pattern.count else { return false }
        return (0...haystack.count - pattern.count).contains {
            haystack[$0..<$0 + pattern.count].elementsEqual(pattern)
        }
    }
}
