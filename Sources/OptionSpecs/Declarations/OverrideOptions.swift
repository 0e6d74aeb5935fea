extension OptionGroupSpec {
    static let override = OptionGroupSpec(
        name: "OverrideOptions", arguments: "OverrideArguments",
        doc: [
            "Changes to one call's request for exploring an API: a query parameter set or removed, the body",
            "replaced (`call` and `curl`; declared for ArgumentParser by `OverrideArguments`). The case stays",
            "the unit: there are no free-form URLs. `-v` and `--curl` show the request as changed."
        ],
        imports: ["MoyaKit"],
        items: [
            .repeated(
                "queryEdits", "--query", valueName: "name=value",
                help:
                    "Set a query parameter (NAME=VALUE, replacing the case's NAME; repeated, every value is sent, in order) or remove it (NAME).",
                doc: [
                    "`--query NAME=VALUE` (set, replacing the case's NAME; a repeated NAME adds) and `--query NAME`",
                    "(remove), in order."
                ],
                sample: "page=2"),
            .option(
                "json", "--json", valueName: "json", type: "String?",
                help:
                    "Send this JSON as the body instead of the case's (@FILE: a file's, -: standard input's; read whole to be checked, up to --max-body-size).",
                doc: ["`--json JSON|@FILE|-`."], sample: #"{\"a\":1}"#),
            .option(
                "data", "-d", "--data", valueName: "text", type: "String?",
                help:
                    "Send these bytes as the body instead of the case's (@FILE: a file's, -: standard input's, up to --max-body-size; streamed). -d as curl's, but the bytes are sent as they are (curl's --data-binary).",
                doc: ["`--data TEXT|@FILE|-`."], sample: "x=1")
        ],
        folder: "Options")
}
