import ArgumentParser

extension MoyaCommand {
    struct Request: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send one request no case declares: a method and a path on an API, or a URL.",
            discussion: """
                'moya-cli request API METHOD PATH [ITEM...]' sends to the API's base URL (and --env) with its \
                headers, auth, redaction, timeouts and validation, as a case without auth: would be sent; \
                'moya-cli request METHOD URL [ITEM...]' needs no target file and fails with exit 3, 4 or 5 on a \
                3xx (after redirects), 4xx or 5xx. Items, as HTTPie and xh write them: NAME=VALUE (a JSON \
                string field; a form field with --form), NAME:=JSON (any JSON value), NAME==VALUE (a query \
                parameter, repeatable, order kept), Header:value, Header: (removes the header), FIELD@FILE (a \
                multipart file part). A backslash makes =, :, @ or \\ plain text (a\\=b=c). GET, HEAD and TRACE \
                take no body. Output options and exit codes are those of 'call' (see moya-cli(1)).
                """
        )

        @OptionGroup(title: "Request") var requestArguments: RequestArguments
        @OptionGroup(title: "Credentials (replacing the file's auth)") var credentialArguments: CredentialArguments
        @OptionGroup(title: "Output") var outputArguments: OutputArguments
        @OptionGroup(title: "Target files") var targetArguments: TargetArguments
        @OptionGroup(title: "Body and query") var overrideArguments: OverrideArguments

        @Flag(RequestInvocation.form) var form: Bool
        @Option(RequestInvocation.auth, completion: CaseCompletion.optionValue(.schemeName, in: ["request"])) var auth:
            String?
        @Option(RequestInvocation.saveAs) var saveAs: String?
        @Flag(RequestInvocation.saveSample) var saveSample: Bool

        @Argument(RequestInvocation.words, completion: RequestCompletion.kind)
        var words: [String] = RequestInvocation().words

        func validate() throws {
            try credentialArguments.validate(with: overrideArguments, habits: nil, request: requestArguments)
        }

        func run() throws {
            try RequestInvocation(self).run()
        }
    }
}

extension RequestInvocation {
    /// The request ArgumentParser parsed.
    init(_ command: MoyaCommand.Request) {
        self.init(
            words: command.words, form: command.form, auth: command.auth, saveAs: command.saveAs,
            saveSample: command.saveSample, requestOptions: command.requestArguments.options,
            credentialOptions: command.credentialArguments.options, outputOptions: command.outputArguments.options,
            targetOptions: command.targetArguments.options,
            overrideOptions: command.overrideArguments.options)
    }
}
