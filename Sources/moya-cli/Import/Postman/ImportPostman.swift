import ArgumentParser
import TargetModel
import TextSafety

// `import postman`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into ImportFromPostman+Generated.swift (`make options`).
extension MoyaCommand.Import.FromPostman {
    static let configuration = CommandConfiguration(
        commandName: "postman",
        abstract: "Make a target file from a Postman collection (v2.0 or v2.1 JSON).",
        discussion: """
            Each request is a case named from its folders and name (Users / Get user: \
            usersGetUser); {{variables}} become ${VAR} in the base URL, headers and auth, read \
            from the environment 'collection' (the collection's variables) or one named after \
            --environment's file, and string values of the case in paths, queries and bodies. \
            Auth (bearer, basic, apikey, oauth2 client credentials) becomes schemes, saved \
            examples samples; scripts are skipped with a note. Credentials are never written: \
            they are ${secret:VAR} references, named on stderr. An existing file needs --force. \
            Exits 65 with the JSON path for a collection that cannot be imported. See moya-cli-import(1).
            """
    )

    func validate() throws {
        try ImportedTargetFile.checkAPIName(apiName)
    }

    func run() throws {
        try reportingFailures { try ImportPostmanRunner(command: self).run() }
    }
}
