/// A media type as the importer reads it (`Application/Problem+JSON; charset=utf-8`), asked of
/// every response and request body of a spec: compared in ASCII lower case, byte by byte
/// (`String.contains(_:)` of a string and `lowercased()` cost thousands of instructions a call).
struct MediaType {
    /// As the spec writes it.
    let text: String
    /// Lower case, without parameters and surrounding spaces: `application/problem+json`.
    let essence: String

    /// The whole text in lower case, parameters too.
    private let lowered: [UInt8]

    init(_ text: String) {
        self.text = text
        lowered = text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
        var name = lowered.prefix { $0 != UInt8(ascii: ";") }
        while let last = name.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { name.removeLast() }
        while let first = name.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { name.removeFirst() }
        essence = String(decoding: name, as: UTF8.self)
    }

    /// Any JSON: `json` anywhere in the type, parameters included, as the importer has always read it.
    var mentionsJSON: Bool {
        let json = Array("json".utf8)
        guard lowered.count >= json.count else { return false }
        return (0...lowered.count - json.count).contains { lowered[$0..<$0 + json.count].elementsEqual(json) }
    }

    var isPlainJSON: Bool { essence == "application/json" }

    var isText: Bool { essence.utf8.starts(with: "text/".utf8) }

    var isWildcard: Bool { text.utf8.contains(UInt8(ascii: "*")) }
}
