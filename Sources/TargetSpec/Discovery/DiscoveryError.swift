/// A search-path problem that stops discovery (exit 64).
public enum DiscoveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `--targets` path that does not exist.
    case missingTargetsPath(String)

    /// The message for the user.
    public var description: String {
        switch self {
        case .missingTargetsPath(let path): "--targets path '\(path)' does not exist"
        }
    }
}
