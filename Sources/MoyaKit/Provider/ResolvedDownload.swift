#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Where a download is saved, resolved from its `DownloadDestination` the same way for live and
/// stubbed requests.
struct ResolvedDownload {
    /// The file the body ends up in.
    let url: URL
    /// Whether an existing file there may be replaced (`.removePreviousFile`).
    let overwrite: Bool
    /// Whether missing folders are created (`.createIntermediateDirectories`); `OutputFile`
    /// creates them and removes them again if the download fails.
    let createsFolders: Bool

    /// Asks `destination` where the body goes.
    init(_ destination: DownloadDestination, head: HTTPResponseHead) {
        let temporaryURL = FileManager.default.temporaryDirectory.appendingPathComponent("moyakit-\(UUID().uuidString)")
        let (url, options) = destination(temporaryURL, head)
        self.url = url
        self.overwrite = options.contains(.removePreviousFile)
        self.createsFolders = options.contains(.createIntermediateDirectories)
    }
}
