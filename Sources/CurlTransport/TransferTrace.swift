/// What a traced transfer reports as it goes, the way `curl -v` shows it: the request heads
/// as sent (each redirect's too), the response header lines as received, and libcurl's notes.
/// Bodies are not traced. Set with `Session(configuration:trace:)`; called on the thread driving
/// the transfer.
public enum TransferTrace: Sendable, Equatable {
    /// A note from libcurl (`Connected to …`, `Issue another request to this URL: …`), one line.
    case note(String)
    /// A request head as sent: the request line and header lines, CRLFs removed, blank line left out.
    case requestHead([String])
    /// One response header line as received (the status line included), CRLF removed; an empty
    /// line ends a response head.
    case responseHeader(String)
}

extension TransferTrace {
    /// `note` with the value of a cookie libcurl's engine stored (`Added cookie NAME="VALUE" for
    /// domain …`, `Replaced cookie …`) shown as `<redacted>`: a cookie value is a secret, and
    /// no redactor of a caller knows it. Other notes are returned as they are.
    static func hidingCookieValue(in note: String) -> String {
        guard note.hasPrefix("Added cookie ") || note.hasPrefix("Replaced cookie "),
            let open = note.firstRange(of: "=\""), let close = note.ranges(of: "\" for domain ").last,
            open.upperBound <= close.lowerBound
        else { return note }
        return note[..<open.lowerBound] + "=<redacted> for domain " + note[close.upperBound...]
    }
}
