extension OptionGroupSpec {
    static let output = OptionGroupSpec(
        name: "OutputOptions", arguments: "OutputArguments",
        doc: ["What `call` prints and where (declared for ArgumentParser by `OutputArguments`)."],
        items: [
            .flag("include", "-i", "--include", help: "Print the status line and headers before the body."),
            .flag(
                "headersOnly", "--headers-only",
                help:
                    "Print only the status line and headers, and end the transfer once they are in (the body is not read); as HTTPie's and xh's -h, --print h."
            ),
            .option(
                "print", "-p", "--print", valueName: "what", type: "String?",
                help:
                    "As HTTPie's and xh's --print: what to print on stdout, letters of H (request head), B (request body), h (response head), b (response body), m (meta: status line and timings); -p hb is -i."
                    + " Default: b.",
                sample: "Hhb"),
            .flag(
                "meta", "--meta",
                help:
                    "As HTTPie's --meta (-p m): print only the status line and the timings, after the transfer (the body still goes to --output)."
            ),
            .option(
                "keyPath", "--keypath", valueName: "keypath", type: "String?",
                help:
                    "Print only the value at KEYPATH of a JSON body: a JSON path ($.a[0].b, $['dotted.key']) or a dotted one (a.0.b); strings unquoted.",
                sample: "a.b.0"),
            .option(
                "format", "--format", type: "CallFormat", initial: ".raw",
                help:
                    "Output format: the body as received (raw), or a JSON envelope with status, headers, body and timing (json; with --output, the file's path and size instead of the body); jsonl prints one line per item with --all, and one {event, id, data} per event of a stream.",
                sample: "json"),
            .flag(
                "stream", "-S", "--stream",
                help:
                    "As HTTPie's and xh's --stream: print the body on a terminal as it arrives, whatever its type (event streams and JSON lines are streamed already; JSON lines pretty per line)."
            ),
            .option(
                "pretty", "--pretty", valueName: "style", type: "String?",
                help:
                    "As HTTPie's and xh's --pretty: all (JSON indented and colored, also on a pipe), format (indented, no colors), colors (as all), none (the body as it came, also on a terminal). Default: all on a terminal, none on a pipe.",
                sample: "format"),
            .flag(
                "sorted", "--sorted",
                help:
                    "As xh's --sorted: sort the keys of a formatted JSON body (every object's, by name) and -i's header fields by name."
            ),
            .option(
                "maxEvents", "--max-events", valueName: "n", type: "Int?",
                help:
                    "End the transfer after N events of a stream (text/event-stream events, JSON lines), exit 0.",
                sample: "3"),
            .option(
                "writeOut", "-w", "--write-out", valueName: "format", type: "String?",
                help:
                    "As curl's: after the body, print FORMAT with %{http_code}, %{time_total}, %{size_download}, %{url_effective}, %{header{NAME}}, %{json}... replaced (see moya-cli(1)); @FILE reads it from FILE; secrets redacted.",
                sample: "%{http_code}\\n"),
            .option(
                "dumpHeader", "-D", "--dump-header", valueName: "file", type: "String?",
                help:
                    "As curl's: write the status line and headers to FILE, as -i prints them ('-': before the body on stdout).",
                sample: "head.txt"),
            .option(
                "output", "-o", "--output", valueName: "file", type: "String?",
                help:
                    "Write the body (or the download) to FILE ('-': stdout), replacing it as curl does; a regular file whole or not at all, a device or FIFO written through.",
                sample: "out.bin"),
            .option(
                "etagSave", "--etag-save", valueName: "file", type: "String?",
                help: "As curl's: write the response's ETag to FILE (kept as it was when the answer has none).",
                sample: "etag.txt"),
            .option(
                "etagCompare", "--etag-compare", valueName: "file", type: "String?",
                help:
                    "As curl's: send If-None-Match with the ETag in FILE (none when FILE is missing or empty); a 304 then exits 0.",
                sample: "etag.txt"),
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
