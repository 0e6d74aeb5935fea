import ArgumentParser
import MoyaKit
import TargetSpec
import TextSafety

/// A `validate` as its command line says: the files or folders named, and the target options.
///
/// `MoyaCommand.Validate` makes one from what ArgumentParser parsed; `DirectParser` makes one
/// without ArgumentParser (its reflection was a third of validating a small file), declining
/// anything else (an unknown option, `-h`, `--`), which ArgumentParser then answers.
struct ValidateInvocation: DirectlyParsable {
    /// `-h`/`--help`: ArgumentParser's help for the command.
    var help = false
    /// Target files or folders; none: every file found.
    var files: [String] = []
    var targetOptions = TargetOptions()

    /// An unknown `--name` is an unknown option here, not a word.
    static var takesValueNames: Bool { false }

    func validate() throws(OptionsError) {
        try targetOptions.validate()
    }

    func run() throws {
        if help { throw CleanExit.helpRequest(MoyaCommand.Validate.self) }
        try reportingFailures {
            let loader = CatalogLoader(options: targetOptions)
            let report =
                files.isEmpty
                ? try MoyaCommand.Validate.discoveredFilesReport(loader)
                : try MoyaCommand.Validate.namedFilesReport(files, fileRoot: targetOptions.fileRoot)
            StandardStream.error.write(
                DiagnosticRenderer.render(
                    report.diagnostics, source: { report.sources[$0] }, colored: loader.colorsDiagnostics))
            StandardStream.output.write(report.summary.joined())
            if files.isEmpty, report.summary.isEmpty {
                StandardStream.error.write(
                    "moya-cli: warning: no target files found; searched: \(DisplayText.escaped(report.searched))\n")
            }
            let errors = report.diagnostics.filter { $0.severity == .error }.count
            if errors > 0 {
                throw CommandFailure(.invalidTargetFile, "\(errors) error\(errors == 1 ? "" : "s") in target files")
            }
        }
    }

    /// The command's options, as `DirectParser` reads them; `MoyaCommand.Validate` declares its own
    /// entries (`files`) for ArgumentParser, and its group's through `TargetArguments`.
    static var table: [OptionDeclaration<Self>] {
        typealias Entry = OptionDeclaration<Self>
        return [Entry.builtInHelp { $0.help = true }]
            + Entry.group(TargetOptions.table) { $1(&$0.targetOptions) }
            + [files]
    }

    static var files: OptionDeclaration<Self> {
        .words(valueName: "file", help: "Target files or folders to validate; default: every file found.") {
            $0.files.append($1)
        }
    }
}

extension ValidateInvocation {
    init(_ command: MoyaCommand.Validate) {
        self.init(files: command.files, targetOptions: command.targetArguments.options)
    }
}
