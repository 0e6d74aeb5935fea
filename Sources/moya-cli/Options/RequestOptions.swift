import ArgumentParser
import MoyaKit

// The `RequestOptions` group: the plain values the commands use (with their defaults), the table
// that names and describes each option (read by `DirectParser`), and `RequestArguments`, the
// ArgumentParser declaration made from that table. A new option is a field, an entry and a wrapper.

/// How a request is sent: environment, overrides, TLS, proxy, redirects, retries.
///
/// A plain value, not ArgumentParser's: a `call` that `DirectParser` parses never makes an
/// ArgumentParser wrapper, whose runtime metadata is start-up time (budget "call --stub (github zen)",
/// bench/budgets.json).
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
    /// The group's options, as `DirectParser` reads them and `RequestArguments` declares them.
    static var table: [OptionDeclaration<Self>] {
        [
            environment, baseURL, headers, timeout, connectTimeout, retry, retryAll, insecure, cacert, cert, key, proxy,
            noFollow,
            maxRedirects, showSecrets, maxBodySize
        ]
    }

    static var environment: OptionDeclaration<Self> {
        .option("--env", valueName: "name", help: "Use the target file's environment NAME.") { $0.environment = $1 }
    }

    static var baseURL: OptionDeclaration<Self> {
        .option("--base-url", valueName: "url", help: "Send to URL instead of the API's (or the case's) base URL.") {
            $0.baseURL = $1
        }
    }

    static var headers: OptionDeclaration<Self> {
        .repeated(
            "-H", "--header", valueName: "header",
            help: "Add or replace a header, 'Name: value' (repeatable; 'Name:' removes it)."
        ) { $0.headers.append($1) }
    }

    static var timeout: OptionDeclaration<Self> {
        .option(
            "--timeout", valueName: "seconds",
            help:
                "Total time a request may take: a decimal number of seconds (default: the case's or API's timeout, else 60)."
        ) {
            (options, timeout: DecimalNumber) in options.timeout = timeout.value
        }
    }

    static var connectTimeout: OptionDeclaration<Self> {
        .option(
            "--connect-timeout", valueName: "seconds",
            help: "Time connecting may take: a decimal number of seconds (default: the API's connectTimeout, else 10)."
        ) {
            (options, timeout: DecimalNumber) in options.connectTimeout = timeout.value
        }
    }

    static var retry: OptionDeclaration<Self> {
        .option(
            "--retry", valueName: "n",
            help:
                "Retry up to N times on timeouts, failures to resolve or connect, reset connections, and HTTP 408, 429, 500, 502, 503, 504; waits 0.5 s, 1 s, 2 s... (at most 30 s) or as Retry-After says. Only idempotent methods unless --retry-all; never with --stub."
        ) {
            $0.retry = $1
        }
    }

    static var retryAll: OptionDeclaration<Self> {
        .flag("--retry-all", help: "With --retry: also retry methods that are not idempotent (POST, PATCH, CONNECT).") {
            $0.retryAll = true
        }
    }

    static var insecure: OptionDeclaration<Self> {
        .flag("-k", "--insecure", help: "Do not verify TLS certificates.") { $0.insecure = true }
    }

    static var cacert: OptionDeclaration<Self> {
        .option("--cacert", valueName: "file", help: "Trust the certificate authorities in FILE (PEM).") {
            $0.cacert = $1
        }
    }

    static var cert: OptionDeclaration<Self> {
        .option("--cert", valueName: "file", help: "Client certificate FILE (PEM).") { $0.cert = $1 }
    }

    static var key: OptionDeclaration<Self> {
        .option("--key", valueName: "file", help: "Private key FILE of the client certificate.") { $0.key = $1 }
    }

    static var proxy: OptionDeclaration<Self> {
        .option("--proxy", valueName: "url", help: "Use the proxy URL (default: http_proxy, https_proxy, no_proxy).") {
            $0.proxy = $1
        }
    }

    static var noFollow: OptionDeclaration<Self> {
        .flag("--no-follow", help: "Do not follow redirects.") { $0.noFollow = true }
    }

    static var maxRedirects: OptionDeclaration<Self> {
        .option("--max-redirects", valueName: "n", help: "Follow at most N redirects.") { $0.maxRedirects = $1 }
    }

    static var showSecrets: OptionDeclaration<Self> {
        .flag(
            "--show-secrets",
            help: "Show secrets in logs, curl commands, reports and error messages instead of <redacted>."
        ) {
            $0.showSecrets = true
        }
    }

    static var maxBodySize: OptionDeclaration<Self> {
        .option(
            "--max-body-size", valueName: "size",
            help:
                "The most a response body kept in memory may take (--keypath, --format json, a terminal, check's shape comparison): a number of bytes, or with K, M, G (1024-based). A larger body fails with exit 1; bodies streamed to a pipe or --output have no limit. Also caps a request body read from a stream (--json -, --json @FILE, --data -): more exits 64."
        ) {
            $0.maxBodySize = $1
        }
    }
}

/// The `RequestOptions` as ArgumentParser declares them, from the group's table.
struct RequestArguments: ParsableArguments {
    @Option(
        RequestOptions.environment,
        completion: CaseCompletion.optionValue(.environmentName, in: ["call", "request", "curl", "check"]))
    var environment: String?
    @Option(RequestOptions.baseURL) var baseURL: String?
    @Option(RequestOptions.headers) var headers = RequestOptions().headers
    @Option(RequestOptions.timeout) var timeout: DecimalNumber?
    @Option(RequestOptions.connectTimeout) var connectTimeout: DecimalNumber?
    @Option(RequestOptions.retry) var retry = RequestOptions().retry
    @Flag(RequestOptions.retryAll) var retryAll: Bool
    @Flag(RequestOptions.insecure) var insecure: Bool
    @Option(RequestOptions.cacert) var cacert: String?
    @Option(RequestOptions.cert) var cert: String?
    @Option(RequestOptions.key) var key: String?
    @Option(RequestOptions.proxy) var proxy: String?
    @Flag(RequestOptions.noFollow) var noFollow: Bool
    @Option(RequestOptions.maxRedirects) var maxRedirects = RequestOptions().maxRedirects
    @Flag(RequestOptions.showSecrets) var showSecrets: Bool
    @Option(RequestOptions.maxBodySize) var maxBodySize = RequestOptions().maxBodySize

    /// The values parsed, as the plain group the commands work with.
    var options: RequestOptions {
        RequestOptions(
            environment: environment, baseURL: baseURL, headers: headers, timeout: timeout?.value,
            connectTimeout: connectTimeout?.value,
            retry: retry, retryAll: retryAll, insecure: insecure, cacert: cacert, cert: cert, key: key, proxy: proxy,
            noFollow: noFollow, maxRedirects: maxRedirects, showSecrets: showSecrets, maxBodySize: maxBodySize)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
