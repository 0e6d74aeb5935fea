import ArgumentParser
import MoyaKit
import TargetSpec

extension MoyaCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every API found, or every case of one API.",
            discussion: """
                Without API, lists each API with its case count and file. With API, lists each case \
                with its values, method, path and task kind. `--format json` prints a stable document \
                for scripts.
                """
        )

        @Argument(help: "An API name; omit to list every API.",
                  completion: CaseCompletion.kind(of: .apiName, in: ["list"]) { words in
                      (try? List.parse(words)).map { CaseCompletion.Context(words: [], targetPaths: $0.targetArguments.targetPaths) }
                  })
        var api: String?

        @Option(help: "Output format.")
        var format: ListFormat = .table

        @OptionGroup var targetArguments: TargetArguments

        func run() throws {
            try reportingFailures {
                let loader = CatalogLoader(options: targetArguments.options)
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
                    StandardStream.output.write(rows.rendered(api: spec, width: width))
                } else {
                    let catalog = try loader.load { _, _ in }
                    loader.printDiagnostics(of: catalog)
                    if catalog.files.isEmpty && format == .table {
                        let places = loader.searchPath.locations.map(\.displayPath).joined(separator: ", ")
                        StandardStream.error.write("moya-cli: no target files found (looked in \(places)); "
                            + "put *.yaml files in ./targets or name them with --targets\n")
                        return
                    }
                    StandardStream.output.write(format == .json ? CatalogListing.json(of: catalog)
                                                : CatalogListing.table(of: catalog, width: width))
                    if catalog.hasErrors {
                        throw CommandFailure(.invalidTargetFile, "some target files are invalid (see above)")
                    }
                }
            }
        }
    }
}

/// The formats `list` prints.
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table
    case json
}

extension TargetCatalog {
    /// The catalog with only the diagnostics of `file`.
    func filtered(toFile file: String) -> TargetCatalog {
        var copy = self
        copy.diagnostics = diagnostics.filter { $0.file == file }
        return copy
    }
}
