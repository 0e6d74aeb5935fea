import ArgumentParser

/// The `RequestOptions` as ArgumentParser declares them (help texts included).
struct RequestArguments: ParsableArguments {
    @Option(name: .customLong("env"), help: ArgumentHelp("Use the target file's environment NAME.", valueName: "name"))
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
        "The most a response body kept in memory may take (--keypath, --format json, a terminal, check's shape comparison): a number of bytes, or with K, M, G (1024-based). A larger body fails with exit 1; bodies streamed to a pipe or --output have no limit.",
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
