import ArgumentParser
import FoundationEssentials

// The `TargetOptions` group's checks and helpers. Its fields, its table and `TargetArguments` are generated
// (`TargetOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension TargetOptions {
    /// Refuses a `--file-root` that is not a folder; any path may be searched.
    func validate() throws(OptionsError) {
        guard let fileRoot else { return }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: fileRoot, isDirectory: &isFolder), isFolder else {
            throw OptionsError("--file-root '\(fileRoot)' is not a folder")
        }
    }
}
