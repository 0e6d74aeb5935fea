import MoyaKit
import ArgumentParser

/// What `call` prints and where.
struct OutputOptions: ParsableArguments {
    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status line and headers before the body.")
    var include = false

    @Flag(name: .customLong("headers-only"), help: "Print only the status line and headers.")
    var headersOnly = false

    @Option(name: .customLong("keypath"), help: ArgumentHelp("Print only the value at KEYPATH of a JSON body, e.g. a.b.0.c (strings unquoted).", valueName: "keypath"))
    var keyPath: String?

    @Option(help: "Output format: the body as received (raw), or a JSON envelope with status, headers, body and timing (json).")
    var format: CallFormat = .raw

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the body (or the download) to FILE.", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing --output or download destination.")
    var force = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Log the request (as a curl command too) and the response to stderr.")
    var verbose = false

    @Flag(help: "Print the request as a curl command to stderr, then send it.")
    var curl = false

    func validate() throws {
        if headersOnly && keyPath != nil { throw ValidationError("--headers-only and --keypath cannot be combined") }
        if output != nil && (keyPath != nil || format == .json || headersOnly) {
            throw ValidationError("--output writes the body; it cannot be combined with --keypath, --headers-only or --format json")
        }
        if format == .json && (include || headersOnly || keyPath != nil) {
            throw ValidationError("--format json already holds the headers; drop --include, --headers-only and --keypath")
        }
    }
}

/// The formats `call` prints.
enum CallFormat: String, ExpressibleByArgument, CaseIterable {
    case raw
    case json
}

/// Answering from sample data instead of the network.
struct StubOptions: ParsableArguments {
    @Flag(help: "Answer from the case's sample data; nothing is sent.")
    var stub = false

    @Option(help: ArgumentHelp("With --stub: wait SECONDS before answering (Moya's StubBehavior.delayed).", valueName: "seconds"))
    var delay: Double?

    @Option(help: ArgumentHelp("With --stub: answer with the named sample instead of the default.", valueName: "name"))
    var sample: String?

    func validate() throws {
        if let delay {
            guard delay >= 0, delay <= SessionConfiguration.maximumInterval else {
                throw ValidationError("--delay must be a number of seconds from 0 to \(Int(SessionConfiguration.maximumInterval))")
            }
            guard stub else { throw ValidationError("--delay needs --stub") }
        }
        if sample != nil && !stub { throw ValidationError("--sample needs --stub") }
    }
}

extension OutputOptions: DirectlyParsable {
    static var directOptions: [DirectOption<Self>] {
        [
            .flag("-i", "--include") { $1(&$0._include) },
            .flag("--headers-only") { $1(&$0._headersOnly) },
            .option("--keypath") { $1(&$0._keyPath) },
            .option("--format", default: .raw) { $1(&$0._format) },
            .option("-o", "--output") { $1(&$0._output) },
            .flag("--force") { $1(&$0._force) },
            .flag("-v", "--verbose") { $1(&$0._verbose) },
            .flag("--curl") { $1(&$0._curl) },
        ]
    }
}

extension StubOptions: DirectlyParsable {
    static var directOptions: [DirectOption<Self>] {
        [
            .flag("--stub") { $1(&$0._stub) },
            .option("--delay") { $1(&$0._delay) },
            .option("--sample") { $1(&$0._sample) },
        ]
    }
}
