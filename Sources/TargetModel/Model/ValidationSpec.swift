/// Which status codes count as success (Moya's `ValidationType`).
public enum ValidationSpec: Sendable, Hashable {
    /// Every status passes (Moya's default).
    case none
    /// 200...299.
    case successCodes
    /// 200...399.
    case successAndRedirectCodes
    /// Exactly these codes (each 100...599).
    case customCodes([Int])

    /// The names a file may write instead of a list.
    public static let names = ["none", "successCodes", "successAndRedirectCodes"]
}
