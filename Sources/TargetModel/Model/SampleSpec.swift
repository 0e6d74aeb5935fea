import PositionedYAML

/// A case's sample response (Moya's `sampleData` / `sampleResponseClosure`), used by `--stub`.
public struct SampleSpec: Sendable, Hashable {
    /// A sample's body.
    public enum Body: Sendable, Hashable {
        /// No body (`{status: 204}`).
        case empty
        /// `text:` (or a bare string): UTF-8 text.
        case text(Template)
        /// `json:`: a JSON document; exact placeholders are typed.
        case json(JSONTemplate)
        /// `file:`: a file's bytes, sent as they are (path relative to the target file's folder).
        case file(path: Template)
    }

    /// What the stub answers.
    public enum Outcome: Sendable, Hashable {
        /// An HTTP response.
        case response(status: Int, headers: [HeaderSpec], body: Body)
        /// `error:`: a network error instead of a response.
        case networkError(SampleErrorKind)
    }

    /// The answer.
    public var outcome: Outcome
    /// Where the sample is declared.
    public var mark: Mark

    /// Creates a sample.
    public init(outcome: Outcome, mark: Mark) {
        self.outcome = outcome
        self.mark = mark
    }
}

/// A sample with its name: `samples: {ok: ..., missing: ...}`; a lone `sample:` is named `default`.
public struct NamedSample: Sendable, Hashable {
    /// The sample's name (`--sample NAME`).
    public var name: String
    /// The sample.
    public var sample: SampleSpec

    /// Creates a named sample.
    public init(name: String, sample: SampleSpec) {
        self.name = name
        self.sample = sample
    }
}

/// The network errors a sample can simulate.
public enum SampleErrorKind: String, Sendable, Hashable, CaseIterable {
    /// The request timed out.
    case timeout
    /// The host name could not be resolved.
    case cannotResolveHost
    /// The connection was refused (alias `connectionRefused`).
    case cannotConnect
    /// The connection was reset.
    case connectionReset
    /// The TLS handshake failed.
    case tls
    /// Too many redirects.
    case tooManyRedirects

    /// Every name a file may write, aliases included.
    public static let acceptedNames = allCases.map(\.rawValue) + ["connectionRefused"]

    /// The kind for a name as written in a file, aliases included.
    public init?(name: String) {
        if name == "connectionRefused" {
            self = .cannotConnect
        } else {
            self.init(rawValue: name)
        }
    }
}
