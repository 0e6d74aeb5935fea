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
