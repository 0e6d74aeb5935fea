/// `{$uuid}`, `{$timestamp}` and `{$isoDate}`: values made afresh for each request sent (each
/// page, each retry, each request of `check --jobs`), not once per run as `${VAR}` and `{value}`.
///
/// The loader leaves a marker in the template's text where one stands: letters and digits only,
/// so it passes unchanged through every escaping a template's text goes through (a path segment,
/// a query component, a JSON string, a header line). The one sender replaces each marker of a
/// request as it goes out (`DynamicValues` in TargetSpec), the same value for every marker of one
/// request.
public enum DynamicValue: String, Sendable, Hashable, CaseIterable {
    /// A random (version 4) UUID, lower case: `3f2b8c1e-…`.
    case uuid
    /// Seconds since 1970-01-01 UTC: `1733500800`.
    case timestamp
    /// The time in UTC as ISO 8601 to the second: `2024-12-06T16:00:00Z`.
    case isoDate

    /// What every marker starts with.
    public static let markerPrefix = "MoyaDynamicQx7"
    /// What every marker ends with.
    public static let markerSuffix = "Qx7"

    /// The text standing for this value until the request is sent.
    public var marker: String { Self.markerPrefix + rawValue + Self.markerSuffix }

    /// The value `{$name}` names, if any.
    public init?(placeholderName name: String) {
        self.init(rawValue: name)
    }
}
