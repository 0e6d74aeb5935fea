import ArgumentParser

extension MoyaCommand {
    struct Call: ParsableCommand {
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

        @Flag(CallInvocation.help) var help: Bool

        @OptionGroup(title: "Stubs") var stubArguments: StubArguments
        @OptionGroup(title: "Request") var requestArguments: RequestArguments
        @OptionGroup(title: "Credentials (replacing the file's auth)") var credentialArguments: CredentialArguments
        @OptionGroup(title: "curl's habits") var curlHabitArguments: CurlHabitArguments
        @OptionGroup(title: "Output") var outputArguments: OutputArguments
        @OptionGroup(title: "Target files") var targetArguments: TargetArguments
        @OptionGroup(title: "Ad-hoc changes (for exploring)") var overrideArguments: OverrideArguments
        @OptionGroup(title: "Pages and captures") var pagingArguments: PagingArguments
        @OptionGroup(title: "Recording samples") var recordArguments: RecordArguments

        @Argument(
            CallInvocation.words, parsing: .allUnrecognized,
            completion: CaseCompletion.kind(of: Call.self) {
                .init(words: $0.words, targetPaths: $0.targetArguments.targetPaths)
            })
        var words: [String] = CallInvocation().words

        @Option(CallInvocation.values) var values = CallInvocation().values

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
}

extension CallInvocation {
    /// The call ArgumentParser parsed.
    init(_ command: MoyaCommand.Call) {
        self.init(
            help: command.help, words: command.words, values: command.values,
            stubOptions: command.stubArguments.options, requestOptions: command.requestArguments.options,
            credentialOptions: command.credentialArguments.options, curlHabits: command.curlHabitArguments.options,
            outputOptions: command.outputArguments.options, targetOptions: command.targetArguments.options,
            overrideOptions: command.overrideArguments.options, pagingOptions: command.pagingArguments.options,
            recordOptions: command.recordArguments.options)
    }
}
