/// Fields sent on a line of their own (headers, multipart part headers) must stay on it: the
/// validator refuses literal line breaks, and the runtime checks values bound later.
package enum HeaderLine {
    /// Whether `value` holds CR, LF or NUL.
    package static func holdsLineBreak(_ value: String) -> Bool {
        value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
