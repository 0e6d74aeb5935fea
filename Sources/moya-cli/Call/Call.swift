import ArgumentParser

// `call`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into Call+Generated.swift (`make options`).
extension MoyaCommand.Call {
    static let configuration = CommandConfiguration(
        abstract: "Call one case of an API, live or from its sample data (--stub).",
        discussion: """
            Values follow the case in declared order, or by name (--name value); a list value \
            repeats its option or takes commas (--labels a --labels b, --labels a,b). The body goes to \
            stdout (with --all, the items of every page as one JSON array; with --capture, name='value' lines); logs, progress and errors to stderr. 'moya-cli call API --help' lists the cases \
            of API; 'moya-cli call API CASE --help' describes one. Exit codes: see moya-cli(1).
            """,
        helpNames: []
    )

    func validate() throws {
        let paging = pagingArguments.options
        try pagingArguments.validating { () throws(OptionsError) in
            try paging.validate(with: outputArguments.options)
        }
        try credentialArguments.validate(
            with: overrideArguments, habits: curlHabitArguments, request: requestArguments)
        try recordArguments.validating { () throws(OptionsError) in
            try recordArguments.options.validate(stub: stubArguments.options, paging: paging)
        }
    }

    func run() throws {
        try CallInvocation(self).run()
    }
}
