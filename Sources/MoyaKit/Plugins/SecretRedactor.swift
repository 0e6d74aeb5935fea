/// Hides secrets in logs and `curl` commands: the values of sensitive headers (by name) and any
/// occurrence of the secret values a caller lists (tokens, passwords, API keys), wherever they
/// appear — URL, headers, body — also in their percent-encoded form.
public struct SecretRedactor: Sendable, Hashable {
    /// The header names whose values are hidden by default.
    public static let defaultSensitiveHeaderNames: Set<String> = SensitiveHeaders.defaultNames

    /// What replaces a secret.
    public var placeholder: String
    /// Lowercased names of the headers whose values are hidden.
    public var sensitiveHeaderNames: Set<String>
    /// Values hidden wherever they occur.
    public var secretValues: [String] {
        didSet { redactedForms = Self.forms(of: secretValues) }
    }
    /// When `true`, nothing is hidden (`--show-secrets`).
    public var showsSecrets: Bool

    /// Creates a redactor.
    public init(sensitiveHeaderNames: Set<String> = SecretRedactor.defaultSensitiveHeaderNames, secretValues: [String] = [],
                showsSecrets: Bool = false, placeholder: String = "<redacted>") {
        self.sensitiveHeaderNames = Set(sensitiveHeaderNames.map { $0.lowercased() })
        self.secretValues = secretValues
        self.redactedForms = Self.forms(of: secretValues)
        self.showsSecrets = showsSecrets
        self.placeholder = placeholder
    }

    /// A redactor that hides nothing.
    public static let none = SecretRedactor(sensitiveHeaderNames: [], showsSecrets: true)

    /// The value to show for the header `name`. An `Authorization` scheme (`Bearer`, `Basic`...)
    /// stays visible, since it helps debugging and is no secret.
    public func redact(headerValue value: String, name: String) -> String {
        guard !showsSecrets else { return value }
        let lowercasedName = name.lowercased()
        guard sensitiveHeaderNames.contains(lowercasedName) else { return redact(value) }
        let isAuthorization = lowercasedName == "authorization" || lowercasedName == "proxy-authorization"
        if isAuthorization, let space = value.firstIndex(of: " ") {
            return value[..<space] + " " + placeholder
        }
        return placeholder
    }

    /// `text` with every secret value replaced, longest first so overlapping secrets vanish whole.
    public func redact(_ text: String) -> String {
        guard !showsSecrets, !redactedForms.isEmpty else { return text }
        var result = text
        for form in redactedForms {
            result = result.replacing(form, with: placeholder)
        }
        return result
    }

    /// Each secret as written and percent-encoded, longest first, so a secret that contains
    /// another is replaced whole. Kept in step with `secretValues`, not rebuilt on every call.
    private var redactedForms: [String]

    private static func forms(of secrets: [String]) -> [String] {
        var forms = Set<String>()
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            forms.insert(PercentEncoding.escapeQueryComponent(secret))
        }
        return forms.sorted { $0.utf8.count > $1.utf8.count }
    }
}
