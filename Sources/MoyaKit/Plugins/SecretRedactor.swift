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
    public static let defaultPlaceholder = "<redacted>"
    /// The shortest value (in UTF-8 bytes) hidden wherever it occurs.
    public static let minimumSecretLength = 4

    /// What replaces a secret.
    public var placeholder: String {
        didSet { placeholderBytes = Array(placeholder.utf8) }
    }
    /// Lowercased names of the headers whose values are hidden.
    public var sensitiveHeaderNames: Set<String>
    /// Values hidden wherever they occur.
    public var secretValues: [String] {
        didSet { matcher = Matcher(secrets: secretValues) }
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
        self.matcher = Matcher(secrets: secretValues)
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
    private var matcher: Matcher

    /// Finds the forms of the secrets in a text, the longest first at each position.
    private struct Matcher: Sendable, Hashable {
        /// For each first byte, the forms starting with it, longest first.
        private var formsByFirstByte: [[[UInt8]]]
        private(set) var isEmpty: Bool

        init(secrets: [String]) {
            var forms = Set<[UInt8]>()
            for secret in secrets where secret.utf8.count >= SecretRedactor.minimumSecretLength {
                for form in SecretForms.of(secret) { forms.insert(Array(form.utf8)) }
            }
            isEmpty = forms.isEmpty
            // Most targets have no secret: no table then (only used when there is one). `check`
            // makes a redactor per check, and the 256 empty rows were most of its cost.
            guard !forms.isEmpty else {
                formsByFirstByte = []
                return
            }
            var table = [[[UInt8]]](repeating: [], count: 256)
            for form in forms.sorted(by: { $0.count > $1.count }) { table[Int(form[0])].append(form) }
            formsByFirstByte = table
        }

        func replacingMatches(in text: String, with placeholder: [UInt8]) -> String {
            guard !isEmpty else { return text }
            var text = text
            return text.withUTF8 { replacingMatches(in: $0, with: placeholder) }
        }

        private func replacingMatches(in bytes: UnsafeBufferPointer<UInt8>, with placeholder: [UInt8]) -> String {
            var output: [UInt8] = []
            var index = 0
            var copiedUpTo = 0
            let count = bytes.count
            scanning: while index < count {
                for form in formsByFirstByte[Int(bytes[index])] where form.count <= count - index {
                    var offset = 1
                    while offset < form.count && bytes[index + offset] == form[offset] { offset += 1 }
                    guard offset == form.count else { continue }
                    if output.isEmpty { output.reserveCapacity(count) }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<index]))
                    output.append(contentsOf: placeholder)
                    index += form.count
                    copiedUpTo = index
                    continue scanning
                }
                index += 1
            }
            guard copiedUpTo > 0 else { return String(decoding: bytes, as: UTF8.self) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<count]))
            return String(decoding: output, as: UTF8.self)
        }
    }
}

/// The ways a secret can appear in text: as written, percent-encoded (query, path, form), and
/// inside a JSON string as common encoders escape it.
enum SecretForms {
    static func of(_ secret: String) -> Set<String> {
        var forms: Set<String> = [secret]
        let strict = percentEncoded(secret, keeping: PercentEncoding.isUnreserved)
        let minimal = percentEncoded(secret) { PercentEncoding.isUnreserved($0) || Self.queryAllowed.contains($0) }
        for encoded in [
            PercentEncoding.escapeQueryComponent(secret), PercentEncoding.escapePathSegment(secret), strict, minimal,
            strict.replacing("%20", with: "+"), minimal.replacing("%20", with: "+")
        ] {
            forms.insert(encoded)
            forms.insert(lowercasingPercentEscapes(encoded))
        }
        let scalars = Array(secret.unicodeScalars)
        let hasSlash = scalars.contains("/")
        let hasNonASCII = scalars.contains { !$0.isASCII }
        let hasHTML = scalars.contains { $0 == "<" || $0 == ">" || $0 == "&" }
        for escapesSlash in hasSlash ? [false, true] : [false] {
            for nonASCII in hasNonASCII ? [JSONStringEscaping.NonASCII.raw, .lowercaseHex, .uppercaseHex] : [.raw] {
                for escapesHTML in hasHTML ? [false, true] : [false] {
                    forms.insert(
                        JSONStringEscaping.escaped(
                            scalars, escapesSlash: escapesSlash, nonASCII: nonASCII, escapesHTML: escapesHTML))
                }
            }
        }
        return forms
    }

    /// What a query may hold unescaped besides unreserved bytes (Foundation's `urlQueryAllowed`).
    private static let queryAllowed = Set("!$&'()*+,;=:@/?".utf8)

    /// `text` with every byte `isKept` refuses as `%XX`: with only the unreserved bytes kept, what
    /// form encoders and `encodeURIComponent` write; with the query's set, what a URL library does.
    static func percentEncoded(_ text: String, keeping isKept: (UInt8) -> Bool) -> String {
        var output = ""
        for byte in text.utf8 {
            if isKept(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = String(byte, radix: 16, uppercase: true)
                output += "%" + (digits.count == 1 ? "0" : "") + digits
            }
        }
        return output
    }

    /// `%2F` as `%2f`: both are the same byte to a server.
    static func lowercasingPercentEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                for offset in 1...2 where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[index + offset]) {
                    bytes[index + offset] += 0x20
                }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
