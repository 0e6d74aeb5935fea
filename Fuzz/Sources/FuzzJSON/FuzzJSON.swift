import CLibFuzzer
import FoundationEssentials
import OrderedJSON

/// One fuzz input: parses the input as JSON (and validates it, and reads it in place, which must
/// agree) and, when it parses, writes it back in every
/// form and checks the round trip — what is written parses again to the same value, and writing
/// that again gives the same text. Any trap, sanitizer report or failed check is a finding.
func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: bytes) }
    // Validation without a tree says what parsing says, error for error; the text read in place
    // writes what the tree writes.
    let validated = Result { () throws(JSONParseError) in try JSONSpan(validating: Data(bytes)) }
    switch (parsed, validated) {
    case (.failure(let parseError), .failure(let validationError)):
        precondition(parseError == validationError, "validation said \(validationError), parsing \(parseError)")
        return 0
    case (.success(let value), .success(let span)):
        precondition(span.compactBytes() == value.serializedBytes(), "in-place writing differs from the tree's")
        precondition(span.value == value, "the span's value differs from the tree")
    default:
        fatalError("parsing and validation disagree: \(parsed) against \(validated)")
    }
    guard case .success(let value) = parsed else { return 0 }
    for options: JSONWritingOptions in [[], [.prettyPrinted], [.sortedKeys], [.prettyPrinted, .sortedKeys]] {
        let text = value.serialized(options: options)
        let reparsed: JSONValue
        do {
            reparsed = try JSONValue(parsing: text)
        } catch {
            fatalError("written JSON does not parse (\(error)): \(String(decoding: text, as: UTF8.self))")
        }
        if options.contains(.sortedKeys) {
            precondition(reparsed.serialized(options: options) == text, "writing is not stable with \(options)")
        } else {
            precondition(reparsed == value, "round trip changed the value: \(String(decoding: text, as: UTF8.self))")
        }
    }
    _ = value.serializedString()
    _ = value.coloredString()
    return 0
}
