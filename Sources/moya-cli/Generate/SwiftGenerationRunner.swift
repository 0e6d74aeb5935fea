import FileIO
import MoyaKit
import SwiftGeneration
import TargetModel
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs `moya-cli generate swift`: loads the API, writes its enum to standard output or, whole
/// or not at all, to a regular file.
struct SwiftGenerationRunner {
    let command: MoyaCommand.Generate.Swift

    func run() throws {
        let toStandardOutput = command.output == "-"
        if !toStandardOutput { try Self.checkDestination(command.output, replacing: command.force) }
        let environment = ProcessEnvironment.current
        let loader = CatalogLoader(options: command.targetArguments.options, environment: environment)
        let (_, api) = try loader.api(named: command.api)
        var generator: SwiftGenerator
        do throws(SwiftGenerationError) {
            var options = SwiftGenerationOptions(
                typeName: command.typeName, module: command.module, access: command.access,
                generatorVersion: MoyaCommand.version)
            options.writesExamples = command.examples
            generator = try SwiftGenerator(api: api, options: options)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
        // The file's name alone (the gate's rule for every header): the same wherever the file
        // was found, and naming no one's home folder.
        let source = generator.source(sourceName: TargetFileGate.inputName(api.file))
        do throws(TargetFileEditError) {
            try TargetFileGate.checkPlace(command.output, for: .newFile)
        } catch {
            throw CommandFailure.reporting(error)
        }
        do throws(FileError) {
            if toStandardOutput {
                try StandardStream.output.writeChecked(source)
            } else {
                try OutputFile.write(
                    Data(source.utf8), to: URL(fileURLWithPath: command.output), overwrite: command.force,
                    createFolders: true)
            }
        } catch {
            throw CommandFailure(
                [.destinationExists, .destinationProtected].contains(error.kind) ? .usage : .cannotWriteOutput,
                error.kind == .destinationExists
                    ? "\(command.output) exists; give --force to replace it" : error.message)
        }
    }

    /// Refuses, before anything is read, an output that is not a regular file or a new one: a
    /// FIFO would block until someone reads it, a device would swallow the source (64); an
    /// existing file without `replacing` (64, naming --force); a protected place (64).
    static func checkDestination(_ path: String, replacing: Bool) throws {
        var status = stat()
        if stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG {
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFIFO: "a FIFO"
                case S_IFDIR: "a folder"
                case S_IFCHR, S_IFBLK: "a device"
                case S_IFSOCK: "a socket"
                default: "not a regular file"
                }
            throw CommandFailure(
                .usage,
                "--output \(DisplayText.escaped(path)) is \(kind); give a file to write, or - for standard output")
        }
        try ImportedTargetFile.checkWritable(path, replacing: replacing)
    }
}
