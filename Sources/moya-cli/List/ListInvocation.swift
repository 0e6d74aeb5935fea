import ArgumentParser
import MoyaKit
import TargetSpec
import TextSafety

// `ListInvocation` runs the command. Its fields, its table and `init(_ command:)` are declared in
// Sources/OptionSpecs/Declarations and generated into List+Generated.swift (`make options`).
extension ListInvocation {
    /// An unknown `--name` is an unknown option here, not a word.
    static var takesValueNames: Bool { false }

    /// The API named, if any.
    var api: String? { words.first }

    func validate() throws(OptionsError) {
        // A second word is ArgumentParser's to refuse ("unexpected argument").
        guard words.count <= 1 else { throw OptionsError("unexpected argument '\(words[1])'") }
        try targetOptions.validate()
    }

    func run() throws {
        if help { throw CleanExit.helpRequest(MoyaCommand.List.self) }
        try reportingFailures {
            let loader = CatalogLoader(options: targetOptions)
            let width = Terminal.width(of: StandardStream.output.fileDescriptor, environment: loader.environment)
            if let api {
                // Each case becomes its row as it loads; the API keeps none.
                var rowsByFile: [String: CatalogListing.CaseRows] = [:]
                let format = format
                let (catalog, spec) = try loader.api(named: api) { file, spec in
                    rowsByFile[file.displayPath, default: CatalogListing.CaseRows(format: format)].add(spec)
                }
                loader.printDiagnostics(of: catalog.filtered(toFile: spec.file))
                let rows = rowsByFile.removeValue(forKey: spec.file) ?? CatalogListing.CaseRows(format: format)
                rows.write(api: spec, width: width) { StandardStream.output.write($0) }
            } else {
                let catalog = try loader.load { _, _ in }
                loader.printDiagnostics(of: catalog)
                if catalog.files.isEmpty && format == .table {
                    StandardStream.error.write(
                        "moya-cli: no target files found; searched: \(DisplayText.escaped(catalog.searchedDescription)); "
                            + "put *.yaml files in ./targets or name them with --targets\n")
                    return
                }
                StandardStream.output.write(
                    format == .json
                        ? CatalogListing.json(of: catalog, environment: loader.environment)
                        : CatalogListing.table(of: catalog, environment: loader.environment, width: width))
                if catalog.hasErrors {
                    throw CommandFailure(.invalidTargetFile, "some target files are invalid (see above)")
                }
            }
        }
    }
}
