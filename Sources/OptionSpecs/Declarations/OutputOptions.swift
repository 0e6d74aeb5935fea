extension OptionGroupSpec {
    static let output = OptionGroupSpec(
        name: "OutputOptions", arguments: "OutputArguments",
        doc: ["What `call` prints and where (declared for ArgumentParser by `OutputArguments`)."],
        items: [
            .flag("include", "-i", "--include", help: "Print the status line and headers before the body."),
            .flag("headersOnly", "--headers-only", help: "Print only the status line and headers."),
            .option(
                "keyPath", "--keypath", valueName: "keypath", type: "String?",
                help:
                    "Print only the value at KEYPATH of a JSON body: a JSON path ($.a[0].b, $['dotted.key']) or a dotted one (a.0.b); strings unquoted.",
                sample: "a.b.0"),
            .option(
                "format", "--format", type: "CallFormat", initial: ".raw",
                help:
                    "Output format: the body as received (raw), or a JSON envelope with status, headers, body and timing (json); with --all, jsonl prints one item per line.",
                sample: "json"),
            .option(
                "output", "-o", "--output", valueName: "file", type: "String?",
                help:
                    "Write the body (or the download) to FILE ('-': stdout), replacing it as curl does; a regular file whole or not at all, a device or FIFO written through.",
                sample: "out.bin"),
            .flag(
                "force", "--force",
                help:
                    "Replace the existing file at a download case's own destination (else a numbered name is used); write to a block device with -o."
            ),
            .flag(
                "verbose", "-v", "--verbose",
                help: "Show the exchange as HTTP on stderr (> request, < response headers), like curl -v."),
            .flag("curl", "--curl", help: "Print the request as a curl command to stderr, then send it."),
            .repeated(
                "expect", "--expect", valueName: "path=value",
                help:
                    "Assert on the response (repeatable): a JSONPath, status, header:NAME or time, then =, !=, <, <=, >, >= or ~= (matches) and a value, or ={PREDICATES} as in expect:; a failure is reported on stderr and exits 8.",
                doc: ["`--expect`s: assertions on the response, as `expect:` writes them (compact)."],
                sample: "$.args.q=hello"),
            .flag(
                "silent", "-s", "--silent",
                help:
                    "No progress line (shown on a terminal for a transfer that lasts) and no notes on stderr (saved, wrote, retrying); errors are still printed, as with curl -sS."
            )
        ],
        folder: "Options")
}
