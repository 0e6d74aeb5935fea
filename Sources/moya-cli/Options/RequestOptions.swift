import ArgumentParser
import MoyaKit

// The `RequestOptions` group: the plain values the commands use, the fast start-up path's
// option table (`directOptions`), and `RequestArguments`, their ArgumentParser declaration with the
// help texts. A new option is added here, in all three.

/// How a request is sent: environment, overrides, TLS, proxy, redirects, retries.
///
/// A plain value, not ArgumentParser's: a `call` that `DirectParser` parses never makes an
/// ArgumentParser wrapper, whose runtime metadata alone cost about 0.85 ms a run.
/// `RequestArguments` declares the options and makes one of these.
struct RequestOptions: Equatable {
    /// `--env`.
    var environment: String?
    /// `--base-url`.
    var baseURL: String?
    /// `-H`/`--header`, as typed.
    var headers: [String] = []
    /// `--timeout`, in seconds.
    var timeout: Double?
    /// `--connect-timeout`, in seconds.
    var connectTimeout: Double?
    /// `--retry`.
    var retry: Int = 0
    /// `--retry-all`.
    var retryAll = false
    /// `-k`/`--insecure`.
    var insecure = false
    /// `--cacert`.
    var cacert: String?
    /// `--cert`.
    var cert: String?
    /// `--key`.
    var key: String?
    /// `--proxy`.
    var proxy: String?
    /// `--no-follow`.
    var noFollow = false
    /// `--max-redirects`.
    var maxRedirects: Int = 10
    /// `--show-secrets`.
    var showSecrets = false
    /// `--max-body-size`: the most a response body kept in memory may take.
    var maxBodySize: ByteSize = .defaultBodyLimit

    /// Refuses values and combinations that cannot be sent.
    func validate() throws(OptionsError) {
        let limit = SessionConfiguration.maximumInterval
        if let timeout, !(timeout > 0 && timeout <= limit) {
            throw OptionsError("--timeout must be a number of seconds greater than 0 and at most \(Int(limit))")
        }
        if let connectTimeout, !(connectTimeout > 0 && connectTimeout <= limit) {
            throw OptionsError("--connect-timeout must be a number of seconds greater than 0 and at most \(Int(limit))")
        }
        if retry < 0 { throw OptionsError("--retry must be 0 or more") }
        if maxRedirects < 0 { throw OptionsError("--max-redirects must be 0 or more") }
        if key != nil && cert == nil { throw OptionsError("--key needs --cert") }
        for header in headers where HeaderOverride(header) == nil {
            throw OptionsError("--header '\(header)' is not 'Name: value'")
        }
    }

    /// The `-H` overrides, parsed.
    var headerOverrides: [HeaderOverride] { headers.compactMap(HeaderOverride.init) }
}

/// One `-H 'Name: value'`; an empty value (`'Name:'`) removes the header.
struct HeaderOverride {
    var name: String
    var value: String?

    init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmed
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
        self.name = name
        let value = text[text.index(after: colon)...].trimmed
        self.value = value.isEmpty ? nil : value
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmed: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

extension RequestOptions {
    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .option("--env") { $0.environment = $1 },
            .option("--base-url") { $0.baseURL = $1 },
            .repeated("-H", "--header") { $0.headers.append($1) },
            .option("--timeout") { (options, timeout: DecimalNumber) in options.timeout = timeout.value },
            .option("--connect-timeout") { (options, timeout: DecimalNumber) in options.connectTimeout = timeout.value },
            .option("--retry") { $0.retry = $1 },
            .flag("--retry-all") { $0.retryAll = true },
            .flag("-k", "--insecure") { $0.insecure = true },
            .option("--cacert") { $0.cacert = $1 },
            .option("--cert") { $0.cert = $1 },
            .option("--key") { $0.key = $1 },
            .option("--proxy") { $0.proxy = $1 },
            .flag("--no-follow") { $0.noFollow = true },
            .option("--max-redirects") { $0.maxRedirects = $1 },
            .flag("--show-secrets") { $0.showSecrets = true },
            .option("--max-body-size") { $0.maxBodySize = $1 },
        ]
    }
}

/// The `RequestOptions` as ArgumentParser declares them (help texts included).
struct RequestArguments: ParsableArguments {
    @Option(name: .customLong("env"), help: ArgumentHelp("Use the target file's environment NAME.", valueName: "name"),
            completion: CaseCompletion.optionValue(.environmentName, in: ["call", "curl", "check"]))
    var environment: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Send to URL instead of the API's base URL.", valueName: "url"))
    var baseURL: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp(
        "Add or replace a header, 'Name: value' (repeatable; 'Name:' removes it).", valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Total time a request may take: a decimal number of seconds (default: the case's or API's timeout, else 60).", valueName: "seconds"))
    var timeout: DecimalNumber?

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Time connecting may take: a decimal number of seconds (default: the API's connectTimeout, else 10).", valueName: "seconds"))
    var connectTimeout: DecimalNumber?

    @Option(help: ArgumentHelp("Retry up to N times on timeouts, failures to resolve or connect, reset connections, and HTTP 408, 429, 500, 502, 503, 504; waits 0.5 s, 1 s, 2 s... (at most 30 s) or as Retry-After says. Only idempotent methods unless --retry-all; never with --stub.", valueName: "n"))
    var retry: Int = 0

    @Flag(name: .customLong("retry-all"), help: "With --retry: also retry methods that are not idempotent (POST, PATCH, CONNECT).")
    var retryAll = false

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not verify TLS certificates.")
    var insecure = false

    @Option(help: ArgumentHelp("Trust the certificate authorities in FILE (PEM).", valueName: "file"))
    var cacert: String?

    @Option(help: ArgumentHelp("Client certificate FILE (PEM).", valueName: "file"))
    var cert: String?

    @Option(help: ArgumentHelp("Private key FILE of the client certificate.", valueName: "file"))
    var key: String?

    @Option(help: ArgumentHelp("Use the proxy URL (default: http_proxy, https_proxy, no_proxy).", valueName: "url"))
    var proxy: String?

    @Flag(name: .customLong("no-follow"), help: "Do not follow redirects.")
    var noFollow = false

    @Option(name: .customLong("max-redirects"), help: ArgumentHelp("Follow at most N redirects.", valueName: "n"))
    var maxRedirects: Int = 10

    @Flag(name: .customLong("show-secrets"), help: "Show secrets in logs, curl commands, reports and error messages instead of <redacted>.")
    var showSecrets = false

    @Option(name: .customLong("max-body-size"), help: ArgumentHelp(
        "The most a response body kept in memory may take (--keypath, --format json, a terminal, check's shape comparison): a number of bytes, or with K, M, G (1024-based). A larger body fails with exit 1; bodies streamed to a pipe or --output have no limit. Also caps a request body read from a stream (--json -, --json @FILE, --data -): more exits 64.",
        valueName: "size"))
    var maxBodySize: ByteSize = .defaultBodyLimit

    /// The values parsed, as the plain group the commands work with.
    var options: RequestOptions {
        RequestOptions(
            environment: environment, baseURL: baseURL, headers: headers, timeout: timeout?.value, connectTimeout: connectTimeout?.value,
            retry: retry, retryAll: retryAll, insecure: insecure, cacert: cacert, cert: cert, key: key, proxy: proxy,
            noFollow: noFollow, maxRedirects: maxRedirects, showSecrets: showSecrets, maxBodySize: maxBodySize)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
