/// Whether a case's redirects are followed (`redirects: follow | none | N`), as Alamofire's
/// `Redirector` decides per request. `--no-follow` and `--max-redirects` on the command line win.
public enum RedirectPolicy: Sendable, Hashable {
    /// Followed, up to `defaultLimit` (the default).
    case follow
    /// Not followed: a 3xx is the answer, its `Location` a header like any other.
    case none
    /// Followed, up to this many; one more fails as too many redirects (exit 6).
    case limit(Int)

    /// How many redirects `follow` follows: curl's and the command line's default.
    public static let defaultLimit = 10

    /// The most `redirects: N` may say.
    public static let maximumLimit = 1_000

    /// Whether redirects are followed at all.
    public var follows: Bool { self != .none }

    /// How many redirects are followed before failing.
    public var maximumRedirects: Int {
        switch self {
        case .follow: Self.defaultLimit
        case .none: 0
        case .limit(let count): count
        }
    }
}
