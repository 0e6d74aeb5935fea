import ArgumentParser
import MoyaKit
import TargetSpec

// `list`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into List+Generated.swift (`make options`).
extension MoyaCommand.List {
    static let configuration = CommandConfiguration(
        abstract: "List every API found, or every case of one API.",
        discussion: """
            Without API, lists each API with its case count and file. With API, lists each case \
            with its values, method, path and task kind. `--format json` prints a stable document \
            for scripts.
            """
    )

    func run() throws {
        try ListInvocation(self).run()
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
