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
                "continueDownload", "--continue",
                help:
                    "Resume a download case's or -o's file: a failed or interrupted transfer keeps FILE.part, and the next run asks for the rest (Range, If-Range), as curl -C - and wget -c."
            ),
            .flag(
                "verbose", "-v", "--verbose",
                help: "Show the exchange as HTTP on stderr (> request, < response headers), like curl -v."),
            .flag("curl", "--curl", help: "Print the request as a curl command to stderr, then send it."),
            .flag(
                "silent", "-s", "--silent",
                help:
                    "No progress line (shown on a terminal for a transfer that lasts) and no notes on stderr (saved, wrote, retrying); errors are still printed, as with curl -sS."
            )
        ],
        folder: "Options")
}
