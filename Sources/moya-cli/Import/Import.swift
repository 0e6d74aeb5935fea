import ArgumentParser
import MoyaKit
import OpenAPIImport
import TargetModel
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

extension MoyaCommand {
    /// `moya-cli import FORMAT ...`: target files made from other descriptions of an API.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a target file from another description of an API.",
            discussion: "See moya-cli-import(1).",
            subcommands: [OpenAPI.self, FromCurl.self, FromHAR.self, FromPostman.self, FromSwift.self]
        )
    }
}

// `import openapi`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into ImportOpenAPI+Generated.swift (`make options`).
extension MoyaCommand.Import.OpenAPI {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write a target file from an OpenAPI 3.0/3.1 (or Swagger 2.0) description, YAML or JSON.",
        discussion: """
            Each operation becomes a case (named from its operationId), its parameters and \
            request body typed values, its responses samples and validation, its security \
            schemes auth with credentials from environment variables; the file is validated \
            before it is written. What cannot be mapped is a comment at the case and a line on \
            stderr. Writes targets/API.yaml unless --output says otherwise. Exits 0 when the \
            file was written, 65 when the spec is invalid (with its JSON pointer), 64 for usage \
            errors (an existing file without --force, --only matching nothing). \
            See moya-cli-import(1) for every mapping.
            """
    )

    func validate() throws {
        try ImportedTargetFile.checkAPIName(apiName)
        if only.contains(where: \.isEmpty) {
            throw ValidationError("--only needs a tag, an operationId or a path glob")
        }
    }

    func run() throws {
        try reportingFailures { try ImportRunner(command: self).run() }
    }
}
