import TargetModel

/// One request read from another tool's description (a curl command), as a case needs it: what
/// curl would send, in the terms of a target file.
package struct ImportedRequest: Sendable {
    /// Where the command starts.
    package var place: TextPlace
    package var method: String
    package var url: RequestURL
    /// The query parameters, decoded, in order.
    package var query: [NewCase.Pair] = []
    /// The headers, in order, one per name (repeated ones joined); credentials marked secret.
    package var headers: [NewCase.Header] = []
    package var body: Body = .none
    /// A recorded response (HAR), to become the case's sample.
    package var sample: NewCase.Sample?
    /// What was not carried over, or changed.
    package var notes: [(place: TextPlace, message: String)] = []

    /// The body as curl sends it.
    package enum Body: Sendable {
        case none
        /// Bytes sent as they are (`-d`, `--data-*`, `--json`).
        case bytes([UInt8])
        /// `multipart/form-data` (`-F`, `--form-string`).
        case multipart([Part])
        /// A file streamed as the body (`-T`): the case takes it as a `file` value.
        case upload(path: String)
    }

    /// One `-F` part.
    package struct Part: Sendable {
        package var name: String
        package var content: Content
        /// `;type=`.
        package var mimeType: String?
        /// `;filename=`.
        package var fileName: String?

        package enum Content: Sendable {
            /// Text (a value, or a file's contents read at import with `<file`).
            case text([UInt8])
            /// A file sent as a file (`@file`): the case takes it as a `file` value.
            case file(path: String)
        }
    }
}
