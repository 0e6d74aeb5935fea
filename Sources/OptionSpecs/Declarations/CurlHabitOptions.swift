extension OptionGroupSpec {
    static let curlHabit = OptionGroupSpec(
        name: "CurlHabitOptions", arguments: "CurlHabitArguments",
        doc: [
            "curl's short options that a curl user types out of habit (`call`, `curl`): each is taken where",
            "curl's meaning fits here, or refused with the moya-cli way, instead of falling through to the",
            "case's values (`'-X' is not an int for value 'page'`). `-d`, `-u` and `-s` are declared with",
            "what they mean (`--data`, credentials, `--silent`); these are the rest. Short names only, as",
            "curl users write them: a long `--get` or `--location` stays free for a case's value."
        ],
        items: [
            .option(
                "method", "-X", valueName: "method", type: "String?",
                help:
                    "As curl's: accepted when METHOD is the case's; the case declares its method, so another is refused (see 'moya-cli request').",
                doc: ["`-X METHOD`: accepted when it is the case's method."], sample: "GET"),
            .flag(
                "location", "-L",
                help:
                    "As curl's: accepted and changes nothing, since redirects are followed already (--no-follow turns that off).",
                doc: ["`-L`: redirects are followed already."]),
            .flag(
                "get", "-G", help: "Refused: the case declares where its parameters go; use --query NAME=VALUE.",
                doc: ["`-G`: refused."]),
            .flag(
                "fail", "-f", help: "Refused: an HTTP error exits 3, 4 or 5 already (see moya-cli(1), EXIT STATUS).",
                doc: ["`-f`: refused."])
        ],
        validates: false,
        folder: "Options")
}
