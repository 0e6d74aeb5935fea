import ArgumentParser
import FileIO
import TargetModel
import TargetSpec
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A target file an importer made: its `--api` name checked, its path checked before anything is
/// written, validated as a target file, then written atomically (or to standard output for `-`).
enum ImportedTargetFile {
    /// `--api`'s name, refused as a usage error unless it is an API name.
    static func checkAPIName(_ apiName: String?) throws {
        if let apiName, !TargetFileValidator.isAPIName(apiName) {
            throw ValidationError(
                "--api '\(DisplayText.escaped(apiName))' is not an API name: letters, digits, '_' and '-', starting with a letter"
            )
        }
    }

    /// Refuses `path` before any work is written: an existing file without `replacing` (64, naming
    /// --force), a protected place (64), one that cannot be written (74).
    static func checkWritable(_ path: String, replacing: Bool) throws {
        do throws(TargetFileEditError) {
            try TargetFileGate.checkPlace(path, for: .newFile)
        } catch {
            throw CommandFailure.reporting(error)
        }
        do throws(FileError) {
            try OutputFile.checkWritable(path, overwrite: replacing)
        } catch {
            throw CommandFailure(
                [.destinationExists, .destinationProtected].contains(error.kind) ? .usage : .cannotWriteOutput,
                error.kind == .destinationExists ? "\(path) exists; give --force to replace it" : error.message)
        }
    }

    /// Validates `text` as a target file and writes it to `path` (or standard output) atomically,
    /// with the sample files its cases refer to beside it (through `TargetFileGate`, first, so
    /// the file validates).
    static func write(
        _ text: String, to path: String, replacing: Bool, sampleFiles: [(path: String, bytes: [UInt8])] = []
    ) throws {
        let toStandardOutput = path == "-"
        do throws(TargetFileEditError) {
            try TargetFileGate.checkPlace(path, for: .newFile)
            if toStandardOutput, let first = sampleFiles.first {
                throw TargetFileEditError(
                    .usage,
                    "a sample is too large or nests too deep for the target file, and goes to a file beside it (\(first.path)): write the target file to a path (-o FILE), not standard output"
                )
            }
            try TargetFileGate.writeSampleFiles(sampleFiles, besideFileAt: path)
        } catch {
            throw CommandFailure.reporting(error)
        }
        let folder = toStandardOutput ? "." : APISpec.folder(of: path)
        let loaded = TargetFileLoader.load(text: text, file: toStandardOutput ? "<stdout>" : path, directory: folder)
        if loaded.hasErrors {
            StandardStream.error.write(loaded.renderedDiagnostics(summarizingWarnings: true))
            throw CommandFailure(
                .internalError,
                "the target file made for \(path) does not validate; nothing was written (this is a bug in moya-cli import: please report it with the input)"
            )
        }
        do throws(FileError) {
            if toStandardOutput {
                try StandardStream.output.writeChecked(text)
            } else {
                let file = try OutputFile(path: path, overwrite: replacing, createFolders: true)
                do throws(FileError) {
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
