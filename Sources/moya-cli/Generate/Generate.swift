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

// `generate swift`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into GenerateSwift+Generated.swift (`make options`).
extension MoyaCommand.Generate.Swift {
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

    func validate() throws {
        if let typeName, !SwiftIdentifier.isPlainIdentifier(typeName) {
            throw ValidationError(SwiftGenerationError.invalidTypeName(typeName).description)
        }
    }

    func run() throws {
        try reportingFailures { try SwiftGenerationRunner(command: self).run() }
    }
}
