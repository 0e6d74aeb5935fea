import TextSafety

/// A media type as the importer reads it (`Application/Problem+JSON; charset=utf-8`), asked of
/// every response and request body of a spec: compared in ASCII lower case, byte by byte
/// (`String.contains(_:)` of a string and `lowercased()` cost thousands of instructions a call).
struct MediaType {
    /// As the spec writes it.
    let text: String
    /// Lower case, without parameters and surrounding spaces: `application/problem+json`.
    let essence: String

    /// The whole text in ASCII lower case, parameters too.
    private let lowered: String

    init(_ text: String) {
        self.text = text
        let bytes = text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
        lowered = String(decoding: bytes, as: UTF8.self)
        var name = bytes.prefix { $0 != UInt8(ascii: ";") }
        while let last = name.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { name.removeLast() }
        while let first = name.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { name.removeFirst() }
        essence = String(decoding: name, as: UTF8.self)
    }

    /// Any JSON: `json` anywhere in the type, parameters included, as the importer has always read it.
    var mentionsJSON: Bool { TextSearch.contains(lowered, "json") }

    var isPlainJSON: Bool { essence == "application/json" }

    var isText: Bool { essence.utf8.starts(with: "text/".utf8) }

    var isWildcard: Bool { text.utf8.contains(UInt8(ascii: "*")) }
}
