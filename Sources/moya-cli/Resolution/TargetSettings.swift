/// How a case's target is built, besides the case and its values: the process environment, the
/// request options (`--env`, `--base-url`, credentials), stubbing and where a download goes.
struct TargetSettings {
    var environment: [String: String]
    var request: RequestOptions
    /// `--stub` and `--sample` (a later page of `--all --stub` names its own sample).
    var stub = StubOptions()
    var download = DownloadOverride.none
}

/// `--output` and `--force` as a download case takes them: where the file goes instead of where
/// the case says, and whether an existing file is replaced.
struct DownloadOverride {
    /// `-`: stdout; `nil`: where the case says.
    var path: String?
    var overwrites: Bool

    /// The case's destination, never replacing a file.
    static var none: DownloadOverride { DownloadOverride(path: nil, overwrites: false) }
}
