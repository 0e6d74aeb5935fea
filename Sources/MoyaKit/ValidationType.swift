/// Which status codes count as success; any other fails with `MoyaError.statusCode`.
public enum ValidationType: Sendable, Hashable {
    /// Every status code is a success.
    case none
    /// Only 2xx.
    case successCodes
    /// 2xx and 3xx.
    case successAndRedirectCodes
    /// Only the given codes.
    case customCodes([Int])

    /// Whether a response with `statusCode` passes (no array is built, unlike `statusCodes`).
    public func accepts(statusCode: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: (200..<300).contains(statusCode)
        case .successAndRedirectCodes: (200..<400).contains(statusCode)
        case .customCodes(let codes): codes.isEmpty || codes.contains(statusCode)
        }
    }

    /// The accepted status codes; empty means no validation.
    public var statusCodes: [Int] {
        switch self {
        case .successCodes: return Array(200..<300)
        case .successAndRedirectCodes: return Array(200..<400)
        case .customCodes(let codes): return codes
        case .none: return []
        }
    }
}
