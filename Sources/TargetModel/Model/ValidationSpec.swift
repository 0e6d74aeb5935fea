/// Which status codes count as success (Moya's `ValidationType`).
public enum ValidationSpec: Sendable, Hashable {
    /// Every status passes (Moya's default, and `validation: none` in a file).
    case none
    /// 200...299.
    case successCodes
    /// 200...399.
    case successAndRedirectCodes
    /// Exactly these codes (each 100...599); none at all accepts every status, as in Moya.
    case customCodes([Int])

    /// What a case validates when neither it nor its API writes `validation`: unlike Moya's
    /// `.none`, so that a 3xx, 4xx or 5xx exits 3, 4 or 5 as the exit statuses promise.
    package static let unwritten = ValidationSpec.successCodes

    /// The names a file may write instead of a list.
    public static let names = ["none", "successCodes", "successAndRedirectCodes"]
}
