import CurlTransport
import TargetModel
import TargetSpec
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A target file `import curl` and `import har` made: validated as a target file, then written
/// atomically (or to standard output for `-`).
enum ImportedTargetFile {
    /// Validates `text` as a target file and writes it to `path` (or standard output) atomically.
    static func write(_ text: String, to path: String, replacing: Bool) throws {
        let toStandardOutput = path == "-"
        let folder = toStandardOutput ? "." : APISpec.folder(of: path)
        let loaded = TargetFileLoader.load(text: text, file: toStandardOutput ? "<stdout>" : path, directory: folder)
        if loaded.hasErrors {
            StandardStream.error.write(loaded.renderedDiagnostics())
            throw CommandFailure(
                .internalError,
                "the target file made for \(path) does not validate; nothing was written (this is a bug in moya-cli import: please report it with the input)"
            )
        }
        do throws(TransportError) {
            if toStandardOutput {
                try StandardStream.output.writeChecked(text)
            } else {
                let file = try OutputFile(path: path, overwrite: replacing, createFolders: true)
                do throws(TransportError) {
                    try file.write(Data(text.utf8))
                    try file.commit()
                } catch {
                    file.discard()
                    throw error
                }
            }
        } catch {
            throw CommandFailure(
                [.destinationExists, .destinationProtected].contains(error.kind) ? .usage : .cannotWriteOutput,
                error.message)
        }
    }
}
