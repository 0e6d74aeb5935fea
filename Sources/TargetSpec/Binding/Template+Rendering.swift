import MoyaKit
import TargetModel

extension Template {
    /// How placeholder values are escaped when inserted.
    public enum PlaceholderEscaping: Sendable, Hashable {
        /// Inserted as they are.
        case none
        /// Percent-escaped as one URL path segment: only RFC 3986 unreserved characters stay.
        case pathSegment
    }

    /// The text with placeholders and references filled in.
    ///
    /// - Parameters:
    ///   - arguments: the case's bound values, by name.
    ///   - environment: the process environment.
    ///   - variables: the selected environment's `variables` (already resolved); they win over `environment`.
    ///   - escaping: how placeholder values are escaped (`.pathSegment` for paths).
    ///   - redactingSecrets: writes `SecretRedactor.defaultPlaceholder` (`<redacted>`) for secret references.
    /// - Throws: `TemplateRenderError` naming the unset variable and where it is referenced.
    public func render(
        arguments: [String: ArgumentValue] = [:], environment: [String: String] = [:],
        variables: [String: String] = [:],
        escaping: PlaceholderEscaping = .none, redactingSecrets: Bool = false
    ) throws(TemplateRenderError) -> String {
        if isSourceLiteral { return source }
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .placeholder(let name, let mark):
                guard let argument = arguments[name] else { throw .missingArgument(name: name, mark: mark) }
                output += escaping == .pathSegment ? PercentEncoding.escapePathSegment(argument.text) : argument.text
            case .environment(let reference):
                guard let value = Self.value(of: reference, environment: environment, variables: variables) else {
                    throw .unsetEnvironmentVariable(name: reference.name, mark: reference.mark)
                }
                output += redactingSecrets && reference.isSecret ? SecretRedactor.defaultPlaceholder : value
            }
        }
        return output
    }

    /// The value `${...}` stands for: the environment's `variables` first, then the process
    /// environment, then the reference's fallback; `nil` when none has it.
    public static func value(
        of reference: EnvironmentReference, environment: [String: String], variables: [String: String]
    ) -> String? {
        variables[reference.name] ?? environment[reference.name] ?? reference.fallback
    }

    /// Tells `notice` each variable of `template` that is set but hidden from the file
    /// (`hidden`) and whose `${VAR:-fallback}` was used instead: a user who exported it would
    /// otherwise never learn why it was not used.
    static func noteHiddenFallbacks(
        of template: Template, hidden: Set<String>, variables: [String: String], notice: (String) -> Void
    ) {
        guard !hidden.isEmpty else { return }
        for reference in template.environmentReferences
        where reference.fallback != nil && variables[reference.name] == nil && hidden.contains(reference.name) {
            notice(reference.name)
        }
    }
}
