/// The trust store (`TrustGrants`) cannot be read or written as it must be.
public struct TrustStoreError: Error, Sendable, CustomStringConvertible {
    /// The store's path.
    public var path: String
    /// What is wrong, in words.
    public var reason: String

    public var description: String {
        "the trust store \(path) \(reason); no file is trusted by content until it is fixed "
            + "(remove it and run 'moya-cli trust' again)"
    }
}
