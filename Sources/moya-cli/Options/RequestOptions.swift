import MoyaKit
import ArgumentParser

/// How a request is sent: environment, overrides, TLS, proxy, redirects, retries.
struct RequestOptions: ParsableArguments {
    @Option(name: .customLong("env"), help: ArgumentHelp("Use the target file's environment NAME.", valueName: "name"))
    var environment: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Send to URL instead of the API's base URL.", valueName: "url"))
    var baseURL: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp(
        "Add or replace a header, 'Name: value' (repeatable; 'Name:' removes it).", valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Total time a request may take, in seconds (default: the case's or API's timeout, else 60).", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Time connecting may take, in seconds (default: the API's connectTimeout, else 10).", valueName: "seconds"))
    var connectTimeout: Double?

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

    @Flag(name: .customLong("show-secrets"), help: "Show secrets in logs and curl commands instead of <redacted>.")
    var showSecrets = false

    func validate() throws {
        let limit = SessionConfiguration.maximumInterval
        if let timeout, !(timeout > 0 && timeout <= limit) {
            throw ValidationError("--timeout must be a number of seconds greater than 0 and at most \(Int(limit))")
        }
        if let connectTimeout, !(connectTimeout > 0 && connectTimeout <= limit) {
            throw ValidationError("--connect-timeout must be a number of seconds greater than 0 and at most \(Int(limit))")
        }
        if retry < 0 { throw ValidationError("--retry must be 0 or more") }
        if maxRedirects < 0 { throw ValidationError("--max-redirects must be 0 or more") }
        if key != nil && cert == nil { throw ValidationError("--key needs --cert") }
        for header in headers where HeaderOverride(header) == nil {
            throw ValidationError("--header '\(header)' is not 'Name: value'")
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

extension RequestOptions: DirectlyParsable {
    static var directOptions: [DirectOption<Self>] {
        [
            .option("--env") { $1(&$0._environment) },
            .option("--base-url") { $1(&$0._baseURL) },
            .repeated("-H", "--header") { $1(&$0._headers) },
            .option("--timeout") { $1(&$0._timeout) },
            .option("--connect-timeout") { $1(&$0._connectTimeout) },
            .option("--retry", default: 0) { $1(&$0._retry) },
            .flag("--retry-all") { $1(&$0._retryAll) },
            .flag("-k", "--insecure") { $1(&$0._insecure) },
            .option("--cacert") { $1(&$0._cacert) },
            .option("--cert") { $1(&$0._cert) },
            .option("--key") { $1(&$0._key) },
            .option("--proxy") { $1(&$0._proxy) },
            .flag("--no-follow") { $1(&$0._noFollow) },
            .option("--max-redirects", default: 10) { $1(&$0._maxRedirects) },
            .flag("--show-secrets") { $1(&$0._showSecrets) },
        ]
    }
}
