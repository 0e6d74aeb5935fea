import ArgumentParser
import TargetModel
import TextSafety

// `import swift`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into ImportFromSwift+Generated.swift (`make options`).
extension MoyaCommand.Import.FromSwift {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Make target files from an app's Moya TargetType types, read from its Swift sources.",
        discussion: """
            Every type that conforms to TargetType (directly, through an extension or through a \
            protocol that refines it) becomes a target file: its cases and their typed values, \
            base URL (a choice between two literals becomes an environment), path, method, task, \
            headers, validation, authorizationType (auth schemes reading ${secret:MOYA_<API>_TOKEN}) \
            and sampleData. What only the running app knows (a computed value, a function call) \
            is a note with FILE:LINE:COLUMN, on stderr and as a comment at its case, never a \
            guess. Folders are searched for .swift files. Writes targets/API.yaml (one file per \
            type) unless --output says otherwise; an existing file needs --force. Exits 65 when \
            no TargetType is found or a source does not parse (with its place). The sources are \
            read by moya-cli-import-swift, installed beside moya-cli. See moya-cli-import(1).
            """
    )

    func validate() throws {
        try ImportedTargetFile.checkAPIName(apiName)
        if inputs.isEmpty { throw ValidationError("give the Swift files or folders to read") }
    }

    func run() throws {
        try reportingFailures { try ImportSwiftRunner(command: self).run() }
    }
}
