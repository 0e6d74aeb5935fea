#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Chooses where a downloaded body is saved, given the temporary file it would otherwise stay in
/// and the response head (Alamofire's `DownloadRequest.Destination`).
///
/// For a live request MoyaKit resolves the destination *before* sending, because the transport
/// streams the body straight next to its final place; the head passed then has status 0 and the
/// request's URL. A stubbed download passes the sample's head.
public typealias DownloadDestination =
    @Sendable (_ temporaryURL: URL, _ response: HTTPResponseHead)
    -> (destinationURL: URL, options: DownloadOptions)

/// How a download is moved into place.
public struct DownloadOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Create the destination's missing parent folders.
    public static let createIntermediateDirectories = DownloadOptions(rawValue: 1 << 0)
    /// Replace a file already at the destination (otherwise the download fails with `fileAccess`).
    public static let removePreviousFile = DownloadOptions(rawValue: 1 << 1)
}

/// Destinations for common cases.
public enum DownloadDestinations {
    /// Saves to `url`, with `options`.
    public static func file(_ url: URL, options: DownloadOptions = [.createIntermediateDirectories])
        -> DownloadDestination
    {
        { _, _ in (url, options) }
    }
}
