import ArgumentParser

// `request`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into Request+Generated.swift (`make options`).
extension MoyaCommand.Request {
    static let configuration = CommandConfiguration(
        abstract: "Send one request no case declares: a method and a path on an API, or a URL.",
        discussion: """
            'moya-cli request API METHOD PATH [ITEM...]' sends to the API's base URL (and --env) with its \
            headers, auth, redaction, timeouts and validation, as a case without auth: would be sent; \
            'moya-cli request METHOD URL [ITEM...]' needs no target file and fails with exit 3, 4 or 5 on a \
            3xx (after redirects), 4xx or 5xx; before a URL, METHOD may be left out (GET, or POST when an item, \
            --json or --data puts something in the body), and :3000/users is http://localhost:3000/users. Items, as HTTPie and xh write them: NAME=VALUE (a JSON \
            string field; a form field with --form), NAME:=JSON (any JSON value), NAME==VALUE (a query \
            parameter, repeatable, order kept), Header:value, Header: (removes the header), FIELD@FILE (a \
            multipart file part); NAME=@FILE, NAME:=@FILE, Header:@FILE and NAME==@FILE take the value from \
            FILE. A JSON field's NAME is a path, as HTTPie 3's nested JSON: user[name]=Ada, tags[]=x, \
            list[0]=x, []:=1 (a top-level array). A backslash makes =, :, @ or \\ plain text (a\\=b=c), \
            and \\[ \\] brackets in a path. GET, HEAD and TRACE take no body. Output options and exit codes are those of 'call' (see moya-cli(1)).
            """
    )

    func validate() throws {
        try credentialArguments.validate(with: overrideArguments, habits: curlHabitArguments, request: requestArguments)
    }

    func run() throws {
        try RequestInvocation(self).run()
    }
}
