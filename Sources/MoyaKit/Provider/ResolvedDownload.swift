/// Where a download is saved, resolved from its `DownloadDestination` the same way for live and
/// stubbed requests.
struct ResolvedDownload {
    /// The file the body ends up in.
    let url: URL
    /// Whether an existing file there may be replaced (`.removePreviousFile`).
    let overwrite: Bool

    /// Asks `destination` where the body goes and creates the missing folders if its options say so.
    init(_ destination: DownloadDestination, head: HTTPResponseHead) {
        let temporaryURL = FileManager.default.temporaryDirectory.appendingPathComponent("moyakit-\(UUID().uuidString)")
        let (url, options) = destination(temporaryURL, head)
        if options.contains(.createIntermediateDirectories) {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        self.url = url
        self.overwrite = options.contains(.removePreviousFile)
    }
}
