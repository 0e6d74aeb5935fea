import Foundation

/// Where target files are found and how diagnostics look; shared by every subcommand (declared
/// for ArgumentParser by `TargetArguments`).
struct TargetOptions: Equatable {
    /// `--targets`, in the order given.
    var targetPaths: [String] = []
    /// `--no-color`.
    var noColor = false
    /// `--file-root DIR`: files target files name (data files, multipart and sample files) must
    /// be inside DIR instead of inside each target file's folder.
    var fileRoot: String?

    /// Refuses a `--file-root` that is not a folder; any path may be searched.
    func validate() throws(OptionsError) {
        guard let fileRoot else { return }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: fileRoot, isDirectory: &isFolder), isFolder.boolValue else {
            throw OptionsError("--file-root '\(fileRoot)' is not a folder")
        }
    }
}

extension TargetOptions {
    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .repeated("--targets") { $0.targetPaths.append($1) },
            .flag("--no-color") { $0.noColor = true },
            .option("--file-root") { $0.fileRoot = $1 },
        ]
    }
}
