import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `JSONValue` is written out.
public struct JSONWritingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// One member or element per line, indented by two spaces, `": "` after keys.
    public static let prettyPrinted = JSONWritingOptions(rawValue: 1 << 0)
    /// Object members sorted by key (byte order) instead of kept in order.
    public static let sortedKeys = JSONWritingOptions(rawValue: 1 << 1)
    /// With `.prettyPrinted`: laid out as Foundation's `JSONSerialization` writes `.prettyPrinted`,
    /// which is what Moya's `JSONEncoding.prettyPrinted` sends: `" : "` after keys, an empty
    /// object or array over two lines (`{`, a blank line, `}`), and `/` written `\/`.
    public static let foundationLayout = JSONWritingOptions(rawValue: 1 << 2)
}

/// ANSI colors for JSON on a terminal, in the manner of `jq` and `xh`.
package struct JSONColorTheme: Sendable, Hashable {
    /// The SGR sequence before object keys.
    package var key: String
    /// The SGR sequence before string values.
    package var string: String
    /// The SGR sequence before numbers.
    package var number: String
    /// The SGR sequence before `true` and `false`.
    package var boolean: String
    /// The SGR sequence before `null`.
    package var null: String
    /// The SGR sequence before brackets, braces, commas and colons; empty leaves them plain.
    package var punctuation: String
    /// The sequence that ends a colored run.
    package var reset: String

    /// Creates a theme from SGR sequences.
    package init(
        key: String, string: String, number: String, boolean: String, null: String,
        punctuation: String = "", reset: String = "\u{1B}[0m"
    ) {
        self.key = key
        self.string = string
        self.number = number
        self.boolean = boolean
        self.null = null
        self.punctuation = punctuation
        self.reset = reset
    }

    /// Keys bold blue, strings green, numbers cyan, booleans and null magenta.
    package static let `default` = JSONColorTheme(
        key: "\u{1B}[1;34m", string: "\u{1B}[32m", number: "\u{1B}[36m",
        boolean: "\u{1B}[35m", null: "\u{1B}[35m")
}

/// Writes JSON text into a byte buffer, optionally pretty and colored.
struct JSONWriter {
    private let pretty: Bool
    private let sortedKeys: Bool
    private let foundationLayout: Bool
    private let theme: JSONColorTheme?
    private(set) var output: [UInt8] = []

    init(options: JSONWritingOptions, theme: JSONColorTheme? = nil) {
        self.pretty = options.contains(.prettyPrinted) || theme != nil
        self.sortedKeys = options.contains(.sortedKeys)
        self.foundationLayout = pretty && options.contains(.foundationLayout)
        self.theme = theme
    }

    mutating func write(_ value: JSONValue, indent: Int = 0) {
        // (A theme makes the output pretty: compact is uncolored.)
        if !pretty { return writeCompact(value) }
        switch value {
        case .null: colored(theme?.null) { $0.append(contentsOf: "null".utf8) }
        case .bool(let flag): colored(theme?.boolean) { $0.append(contentsOf: (flag ? "true" : "false").utf8) }
        case .int(let number): colored(theme?.number) { Self.appendDecimal(number, to: &$0) }
        case .number(let number): colored(theme?.number) { $0.append(contentsOf: number.text.utf8) }
        case .string(let string):
            let layout = foundationLayout
            colored(theme?.string) { Self.appendQuoted(string, foundationLayout: layout, to: &$0) }
        case .array(let elements): writeArray(elements, indent: indent)
        case .object(let members): writeObject(members, indent: indent)
        }
    }

    private mutating func writeArray(_ elements: [JSONValue], indent: Int) {
        punctuation("[")
        guard !elements.isEmpty else { return closeEmpty("]", indent: indent) }
        for (index, element) in elements.enumerated() {
            if index > 0 { punctuation(",") }
            newline(indent: indent + 1)
            write(element, indent: indent + 1)
        }
        newline(indent: indent)
        punctuation("]")
    }

    private mutating func writeObject(_ members: [(String, JSONValue)], indent: Int) {
        punctuation("{")
        guard !members.isEmpty else { return closeEmpty("}", indent: indent) }
        let ordered = sortedKeys ? members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) } : members
        for (index, (key, value)) in ordered.enumerated() {
            if index > 0 { punctuation(",") }
            newline(indent: indent + 1)
            let layout = foundationLayout
            colored(theme?.key) { Self.appendQuoted(key, foundationLayout: layout, to: &$0) }
            if foundationLayout { output.append(UInt8(ascii: " ")) }
            punctuation(":")
            if pretty { output.append(UInt8(ascii: " ")) }
            write(value, indent: indent + 1)
        }
        newline(indent: indent)
        punctuation("}")
    }

    /// `]` or `}` right after its opening bracket, or, in Foundation's layout, after a blank line.
    private mutating func closeEmpty(_ bracket: Unicode.Scalar, indent: Int) {
        if foundationLayout {
            output.append(UInt8(ascii: "\n"))
            newline(indent: indent)
        }
        punctuation(bracket)
    }

    /// `string` quoted by ``JSONStringEscaping``'s rule, and in Foundation's layout with each `/`
    /// written `\/` as `JSONSerialization` writes it.
    private static func appendQuoted(_ string: String, foundationLayout: Bool, to output: inout [UInt8]) {
        guard foundationLayout, string.utf8.contains(UInt8(ascii: "/")) else {
            return JSONStringEscaping.appendQuoted(string, to: &output)
        }
        var string = string
        string.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            var start = bytes.startIndex
            for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
                JSONStringEscaping.appendEscaped(UnsafeBufferPointer(rebasing: bytes[start..<index]), to: &output)
                output.append(contentsOf: #"\/"#.utf8)
                start = index + 1
            }
            JSONStringEscaping.appendEscaped(UnsafeBufferPointer(rebasing: bytes[start...]), to: &output)
            output.append(UInt8(ascii: "\""))
        }
    }

    /// `write` for compact text without colors: what target files' samples, reports and pipes
    /// get, without asking a theme for each token's color or copying the members for the key
    /// order as the general path does (`make bench`'s offline check and live sweep).
    private mutating func writeCompact(_ value: JSONValue) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): Self.appendDecimal(number, to: &output)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let string): JSONStringEscaping.appendQuoted(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for index in elements.indices {
                if index > elements.startIndex { output.append(UInt8(ascii: ",")) }
                writeCompact(elements[index])
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if sortedKeys {
                for (index, member) in members.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
                    .enumerated()
                {
                    writeCompactMember(member, first: index == 0)
                }
            } else {
                for index in members.indices { writeCompactMember(members[index], first: index == members.startIndex) }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private mutating func writeCompactMember(_ member: (String, JSONValue), first: Bool) {
        if !first { output.append(UInt8(ascii: ",")) }
        JSONStringEscaping.appendQuoted(member.0, to: &output)
        output.append(UInt8(ascii: ":"))
        writeCompact(member.1)
    }

    /// `number` in decimal, as `String(number)` writes it, without making the string.
    static func appendDecimal(_ number: Int, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude  // unsigned, so Int.min has one too
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: buffer[start...])
        }
    }

    private mutating func newline(indent: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private mutating func punctuation(_ character: Unicode.Scalar) {
        colored(theme?.punctuation) { $0.append(UInt8(ascii: character)) }
    }

    private mutating func colored(_ sequence: String?, _ body: (inout [UInt8]) -> Void) {
        guard let sequence, !sequence.isEmpty, let theme else { return body(&output) }
        output.append(contentsOf: sequence.utf8)
        body(&output)
        output.append(contentsOf: theme.reset.utf8)
    }
}

extension JSONValue {
    /// The JSON text as bytes: compact unless `.prettyPrinted`; keys in order unless `.sortedKeys`.
    public func serialized(options: JSONWritingOptions = []) -> Data {
        var writer = JSONWriter(options: options)
        writer.write(self)
        return Data(writer.output)
    }

    /// ``serialized(options:)`` as an array of bytes.
    public func serializedBytes(options: JSONWritingOptions = []) -> [UInt8] {
        var writer = JSONWriter(options: options)
        writer.write(self)
        return writer.output
    }

    /// The JSON text as a string.
    public func serializedString(options: JSONWritingOptions = []) -> String {
        var writer = JSONWriter(options: options)
        writer.write(self)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// Pretty-printed JSON colored with ANSI escape sequences, for a terminal.
    package func coloredString(theme: JSONColorTheme = .default, sortedKeys: Bool = false) -> String {
        var writer = JSONWriter(options: sortedKeys ? [.sortedKeys] : [], theme: theme)
        writer.write(self)
        return String(decoding: writer.output, as: UTF8.self)
    }
}
