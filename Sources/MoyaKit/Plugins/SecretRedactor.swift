import TextSafety

/// Hides secrets in logs, `curl` commands, reports and error messages: the values of sensitive
/// headers (by name) and every occurrence of the secret values a caller lists (tokens, passwords,
/// API keys) — URL, headers, body — as written, percent-encoded, or escaped in a JSON string.
///
/// Secrets are matched whole, in one pass over the text, the longest first at each position: a
/// secret inside another vanishes with it, and the placeholder is never matched again. A value
/// shorter than `minimumSecretLength` is hidden only where it is a sensitive header's value: as a
/// substring it would mangle unrelated text.
public struct SecretRedactor: Sendable, Hashable {
    /// The header names whose values are hidden by default.
    public static let defaultSensitiveHeaderNames: Set<String> = SensitiveHeaders.defaultNames
    /// What replaces a secret by default.
    public static let defaultPlaceholder = SecretMatcher.placeholder
    /// The shortest value (in UTF-8 bytes) hidden wherever it occurs.
    public static let minimumSecretLength = SecretMatcher.minimumSecretLength

    /// What replaces a secret.
    public var placeholder: String {
        didSet { placeholderBytes = Array(placeholder.utf8) }
    }
    /// Lowercased names of the headers whose values are hidden.
    public var sensitiveHeaderNames: Set<String>
    /// Values hidden wherever they occur.
    public var secretValues: [String] {
        didSet { matcher = SecretMatcher(secrets: secretValues) }
    }
    /// When `true`, nothing is hidden (`--show-secrets`).
    public var showsSecrets: Bool

    /// Creates a redactor.
    public init(
        sensitiveHeaderNames: Set<String> = SecretRedactor.defaultSensitiveHeaderNames, secretValues: [String] = [],
        showsSecrets: Bool = false, placeholder: String = SecretRedactor.defaultPlaceholder
    ) {
        // Names nearly always come lowercased already (the defaults, a target's names); then the
        // set is kept as it is rather than rebuilt, which `check` would do for every check.
        let isLowercased = sensitiveHeaderNames.allSatisfy { name in
            name.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        }
        self.sensitiveHeaderNames =
            isLowercased ? sensitiveHeaderNames : Set(sensitiveHeaderNames.map { $0.lowercased() })
        self.secretValues = secretValues
        self.matcher = SecretMatcher(secrets: secretValues)
        self.showsSecrets = showsSecrets
        self.placeholder = placeholder
        self.placeholderBytes = Array(placeholder.utf8)
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

    /// `text` with every secret replaced by the placeholder.
    public func redact(_ text: String) -> String {
        guard !showsSecrets, !matcher.isEmpty else { return text }
        return matcher.replacingMatches(in: text, with: placeholderBytes)
    }

    /// The placeholder's bytes, kept with it.
    private var placeholderBytes: [UInt8]
    /// The forms of `secretValues`, kept in step with them rather than rebuilt on every call.
    private var matcher: SecretMatcher
}
