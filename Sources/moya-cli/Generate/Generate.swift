import ArgumentParser
import SwiftGeneration

extension MoyaCommand {
    /// `moya-cli generate LANGUAGE ...`: source code made from a target file.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write source code from a target file.",
            discussion: "See moya-cli-generate(1).",
            subcommands: [Swift.self]
        )
    }
}

extension SwiftGenerationOptions.Module: ExpressibleByArgument {}
extension SwiftGenerationOptions.Access: ExpressibleByArgument {}

extension MoyaCommand.Generate {
    struct Swift: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "swift",
            abstract: "Write an API as a Moya TargetType enum in Swift.",
            discussion: """
                One case per case of the target file, with typed, labelled associated values; baseURL, \
                path (values escaped as moya-cli escapes them), method, task, headers, sampleData, \
                validationType; AccessTokenAuthorizable when the API has auth; ${VAR} references as \
                members of a Configuration struct the app fills in; named samples as Samples functions. \
                The requests the enum makes through MoyaProvider are the requests moya-cli call sends. \
                Writes to standard output unless --output names a file. Exits 0 when written, 64 for \
                usage errors (an unknown API, an existing file without --force, an output that is not \
                a regular file), 65 when the target file is invalid. See moya-cli-generate(1).
                """
        )

        @Argument(
            help: "The API to write.",
            completion: CaseCompletion.kind(of: .apiName, in: ["generate", "swift"]) { words in
                (try? Swift.parse(words)).map {
                    CaseCompletion.Context(words: [], targetPaths: $0.targetArguments.targetPaths)
                }
            })
        var api: String

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp(
                "Where to write the Swift file; - for standard output (the default).", valueName: "file"),
            completion: .file(extensions: ["swift"]))
        var output = "-"

        @Option(
            name: .customLong("type-name"),
            help: ArgumentHelp("The enum's name (default: the API name in UpperCamelCase).", valueName: "name"))
        var typeName: String?

        @Option(help: ArgumentHelp("The library the file imports: MoyaKit or Moya (Moya 15).", valueName: "module"))
        var module: SwiftGenerationOptions.Module = .moyaKit

        @Option(help: ArgumentHelp("The access level of the declarations: public or internal.", valueName: "level"))
        var access: SwiftGenerationOptions.Access = .public

        @Flag(
            help:
                "Also write NAME.examples: each example of the target file as a case, with the moya-cli call words that send the same request."
        )
        var examples = false

        @Flag(help: "Replace an existing file.")
        var force = false

        @OptionGroup(title: "Target files") var targetArguments: TargetArguments

        func validate() throws {
            if let typeName, !SwiftIdentifier.isPlainIdentifier(typeName) {
                throw ValidationError(SwiftGenerationError.invalidTypeName(typeName).description)
            }
        }

        func run() throws {
            try reportingFailures { try SwiftGenerationRunner(command: self).run() }
        }
    }
}
