import ArgumentParser

/// The `OutputOptions` as ArgumentParser declares them (help texts included).
struct OutputArguments: ParsableArguments {
    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status line and headers before the body.")
    var include = false

    @Flag(name: .customLong("headers-only"), help: "Print only the status line and headers.")
    var headersOnly = false

    @Option(name: .customLong("keypath"), help: ArgumentHelp("Print only the value at KEYPATH of a JSON body, e.g. a.b.0.c (strings unquoted).", valueName: "keypath"))
    var keyPath: String?

    @Option(help: "Output format: the body as received (raw), or a JSON envelope with status, headers, body and timing (json).")
    var format: CallFormat = .raw

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the body (or the download) to FILE ('-': stdout); a regular file whole or not at all, a device or FIFO written through.", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing --output or download destination.")
    var force = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Log the request (as a curl command too) and the response to stderr.")
    var verbose = false

    @Flag(help: "Print the request as a curl command to stderr, then send it.")
    var curl = false

    /// The values parsed, as the plain group the commands work with.
    var options: OutputOptions {
        OutputOptions(include: include, headersOnly: headersOnly, keyPath: keyPath, format: format, output: output,
                      force: force, verbose: verbose, curl: curl)
    }

    func validate() throws {
        try validating(options.validate)
    }
}

extension CallFormat: ExpressibleByArgument {}
