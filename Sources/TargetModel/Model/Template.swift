import PositionedYAML

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
    public var segments: [Segment] {
        get { isSourceLiteral ? (source.isEmpty ? [] : [.literal(source)]) : parsedSegments }
        set { (parsedSegments, isSourceLiteral) = Self.stored(newValue, source: source) }
    }
    /// The text as written in the file.
    public private(set) var source: String
    /// Where the string starts in the file.
    public var mark: Mark

    /// The segments, kept only when the template is not its source as one literal: most strings
    /// of a target file (descriptions, JSON values, header values) are, and an array for each
    /// would weigh on every loaded API (budget "validate (10,000 cases)", bench/budgets.json).
    private var parsedSegments: [Segment]
    /// Whether the template is `source` alone, as literal text (then `parsedSegments` is empty).
    package private(set) var isSourceLiteral: Bool

    /// Creates a template from already parsed segments.
    public init(segments: [Segment], source: String, mark: Mark) {
        self.source = source
        self.mark = mark
        (parsedSegments, isSourceLiteral) = Self.stored(segments, source: source)
    }

    /// What is stored of `segments`: nothing when they are `source` as one literal.
    private static func stored(_ segments: [Segment], source: String) -> ([Segment], Bool) {
        switch segments.count {
        case 0 where source.isEmpty: ([], true)
        case 1: if case .literal(let text) = segments[0], text == source { ([], true) } else { (segments, false) }
        default: (segments, false)
        }
    }

    /// A template with no placeholder or reference: `text` is sent as is.
    public init(literal text: String, mark: Mark = Mark(line: 0, column: 0)) {
        source = text
        self.mark = mark
        parsedSegments = []
        isSourceLiteral = true
    }

    /// The `${VAR}` references, in order of appearance.
    public var environmentReferences: [EnvironmentReference] {
        if isSourceLiteral { return [] }
        return parsedSegments.compactMap {
            if case .environment(let reference) = $0 { reference } else { nil }
        }
    }

    /// The text, when the template has no placeholder and no reference.
    public var literalText: String? {
        if isSourceLiteral { return source }
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
        if isSourceLiteral { return source }
        // Appended in a loop: `[String].joined()` is generic over its elements, whose first use
        // looks up a conformance over the whole binary (~230,000 instructions of every load).
        var text = ""
        for segment in segments {
            if case .literal(let literal) = segment { text += literal } else { text += "x" }
        }
        return text
    }

    /// The placeholder's name when the whole template is exactly one placeholder (`"{id}"`).
    public var soloPlaceholder: String? {
        soloPlaceholderWithMark?.name
    }

    /// The solo placeholder with where it stands (a JSON template keeps it, for diagnostics).
    var soloPlaceholderWithMark: (name: String, mark: Mark)? {
        if isSourceLiteral { return nil }
        return if segments.count == 1, case .placeholder(let name, let mark) = segments[0] { (name, mark) } else { nil }
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
