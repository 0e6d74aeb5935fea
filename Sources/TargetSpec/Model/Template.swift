/// A string from a target file with its `{placeholder}`s and `${VAR}` references, parsed once at load.
///
/// Syntax: `{name}` is a placeholder for a case's value; `{{` and `}}` are literal braces; a `{`
/// that does not start `{identifier}` is a literal brace too (so JSON text such as `{"a":1}` needs
/// no escaping). `${VAR}`, `${VAR:-fallback}` and `${secret:VAR}` read the environment; `$${` is a
/// literal `${`.
public struct Template: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Segment: Sendable, Hashable {
        /// Text sent as written.
        case literal(String)
        /// `{name}`: the value of the case's associated value `name`.
        case placeholder(name: String, mark: Mark)
        /// `${VAR}`: an environment variable.
        case environment(EnvironmentReference)
    }

    /// A `${VAR}` reference.
    public struct EnvironmentReference: Sendable, Hashable {
        /// The variable's name.
        public var name: String
        /// The text after `:-`, used when the variable is not set.
        public var fallback: String?
        /// Whether the value is redacted (`***`) in logs and curl commands.
        public var isSecret: Bool
        /// Where the reference (its `$`) is in the file.
        public var mark: Mark

        /// Creates a reference.
        public init(name: String, fallback: String? = nil, isSecret: Bool = false, mark: Mark) {
            self.name = name
            self.fallback = fallback
            self.isSecret = isSecret
            self.mark = mark
        }
    }

    /// The pieces, adjacent literals merged.
    public var segments: [Segment]
    /// The text as written in the file.
    public var source: String
    /// Where the string starts in the file.
    public var mark: Mark

    /// Creates a template from already parsed segments.
    public init(segments: [Segment], source: String, mark: Mark) {
        self.segments = segments
        self.source = source
        self.mark = mark
    }

    /// A template with no placeholder or reference: `text` is sent as is.
    public init(literal text: String, mark: Mark = Mark(line: 0, column: 0)) {
        self.init(segments: text.isEmpty ? [] : [.literal(text)], source: text, mark: mark)
    }

    /// The `${VAR}` references, in order of appearance.
    public var environmentReferences: [EnvironmentReference] {
        segments.compactMap {
            if case .environment(let reference) = $0 { reference } else { nil }
        }
    }

    /// The text, when the template has no placeholder and no reference.
    public var literalText: String? {
        var text = ""
        for segment in segments {
            guard case .literal(let literal) = segment else { return nil }
            text += literal
        }
        return text
    }

    /// The text with every placeholder and reference taken as the plain name `x`: what a path
    /// template looks like with ordinary values, to tell at load time where it points.
    var representativeText: String {
        segments.map { segment in
            if case .literal(let literal) = segment { literal } else { "x" }
        }.joined()
    }

    /// The placeholder's name when the whole template is exactly one placeholder (`"{id}"`).
    public var soloPlaceholder: String? {
        soloPlaceholderWithMark?.name
    }

    /// The solo placeholder with where it stands (a JSON template keeps it, for diagnostics).
    var soloPlaceholderWithMark: (name: String, mark: Mark)? {
        if segments.count == 1, case .placeholder(let name, let mark) = segments[0] { (name, mark) } else { nil }
    }

    /// Whether some part is a secret (`${secret:VAR}`, or any reference in `auth`).
    public var containsSecret: Bool {
        environmentReferences.contains { $0.isSecret }
    }

    /// The template as written.
    public var description: String { source }

    /// The same template with every environment reference marked secret (everything in `auth` is).
    func markingReferencesSecret() -> Template {
        var copy = self
        copy.segments = segments.map {
            guard case .environment(var reference) = $0 else { return $0 }
            reference.isSecret = true
            return .environment(reference)
        }
        return copy
    }
}
