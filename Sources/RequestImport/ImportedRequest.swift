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
    /// A recorded response (HAR), to become the case's sample: the default, a success.
    package var sample: NewCase.Sample?
    /// Other recorded responses (a 304, a 404), named samples after the default.
    package var otherSamples: [NewCase.Sample] = []
    /// Path segments that are values of the case (a capture's `/items/123`), by segment index.
    package var pathValues: [PathValue] = []
    /// What was not carried over, or changed.
    package var notes: [(place: TextPlace, message: String)] = []

    /// A path segment made a value of the case: `/items/123` is `/items/{id}`, with `123` its example.
    package struct PathValue: Sendable, Equatable {
        package var name: String
        /// The segment's index in the path split at `/` (0 is the empty one before the first `/`).
        package var segment: Int
        package var example: String
    }

    /// The most named samples a case gets from repeated requests.
    static let maximumOtherSamples = 4

    /// Takes another recorded response of the same case (sent with `values`, its path numbers): a
    /// success replaces a default that is not one (which becomes a named sample), and its numbers
    /// become the examples; a status not yet seen becomes a named sample.
    mutating func record(_ response: NewCase.Sample, values: [PathValue]) {
        guard let current = sample else {
            sample = response
            if values.count == pathValues.count { pathValues = values }
            return
        }
        if SampleBody.isSuccess(status: response.status), !SampleBody.isSuccess(status: current.status) {
            sample = response
            if values.count == pathValues.count { pathValues = values }
            otherSamples.removeAll { $0.status == response.status }
            otherSamples.insert(current, at: 0)
        } else if response.status != current.status, !otherSamples.contains(where: { $0.status == response.status }) {
            otherSamples.append(response)
        }
        otherSamples = Array(otherSamples.prefix(Self.maximumOtherSamples))
    }

    /// Makes the default sample a success, so `check` and `--stub` pass: a 304's body (what the
    /// browser's cache answered) becomes a 200 and the 304 a named sample without a body (a 304
    /// has none on the wire); any other error becomes a named sample after an empty 200.
    mutating func makeSuccessTheDefault() {
        guard let current = sample, !SampleBody.isSuccess(status: current.status) else { return }
        if current.status == 304 {
            sample = NewCase.Sample(status: 200, contentType: current.contentType, body: current.body)
            otherSamples.insert(NewCase.Sample(status: 304), at: 0)
            notes.append(
                (place, "the capture holds only a 304 (the browser's cache): the default sample is a 200 with its body")
            )
        } else {
            sample = NewCase.Sample(status: 200)
            otherSamples.insert(current, at: 0)
            notes.append(
                (
                    place,
                    "the capture holds only a \(current.status): the default sample is an empty 200, the \(current.status) a named sample"
                ))
        }
        otherSamples = Array(otherSamples.prefix(Self.maximumOtherSamples))
    }

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
