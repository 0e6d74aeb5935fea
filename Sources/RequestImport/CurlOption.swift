/// The curl command-line options the importer knows: what each means for a request, and whether
/// it takes an argument (curl 8's spelling; every option a browser's "Copy as cURL" writes is
/// here). An option not listed is refused, since its argument could not be told from the URL.
package enum CurlOption: Sendable, Equatable {
    case method, header, userAgent, referer, cookie
    case data, dataRaw, dataBinary, dataASCII, dataURLEncode, json
    case form, formString, uploadFile, user, url, urlQuery, oauth2Bearer
    case get, head, compressed, insecure, location, globOff, pathAsIs
    /// An option that changes how curl runs or what it prints, not the request: noted with why.
    case ignored(why: String)
    /// An option whose argument is a file curl would read (`-K`): refused.
    case config
    /// `--next`, `-:`: several requests in one command.
    case next

    /// The option and whether it takes an argument.
    package struct Entry: Sendable {
        package var option: CurlOption
        package var takesArgument: Bool
    }

    /// Long names (without `--`) to options.
    package static func long(_ name: String) -> Entry? {
        if let entry = longOptions[name] { return entry }
        // `--no-FLAG` turns a flag off; the importer reads only the flags that matter.
        if name.hasPrefix("no-"), let flag = longOptions[String(name.dropFirst(3))], !flag.takesArgument {
            return Entry(option: .ignored(why: "a flag turned off changes nothing the case says"), takesArgument: false)
        }
        return nil
    }

    /// Short letters to options.
    package static func short(_ letter: Character) -> Entry? {
        guard let name = shortNames[letter] else { return nil }
        return longOptions[name]
    }

    private static let shortNames: [Character: String] = [
        "X": "request", "H": "header", "A": "user-agent", "e": "referer", "b": "cookie", "d": "data",
        "F": "form", "T": "upload-file", "u": "user", "G": "get", "I": "head", "k": "insecure", "L": "location",
        "g": "globoff", "K": "config", ":": "next", "s": "silent", "S": "show-error", "v": "verbose",
        "i": "include", "f": "fail", "o": "output", "O": "remote-name", "x": "proxy", "m": "max-time",
        "w": "write-out", "c": "cookie-jar", "D": "dump-header", "r": "range", "z": "time-cond", "E": "cert",
        "U": "proxy-user", "N": "no-buffer", "#": "progress-bar", "0": "http1.0", "4": "ipv4", "6": "ipv6",
        "n": "netrc", "J": "remote-header-name", "j": "junk-session-cookies", "R": "remote-time", "q": "disable",
        "Y": "speed-limit", "y": "speed-time", "C": "continue-at", "Z": "parallel", "B": "use-ascii",
        "l": "list-only", "M": "manual", "V": "version", "h": "help", "t": "telnet-option", "Q": "quote",
        "a": "append", "P": "ftp-port", "p": "proxytunnel"
    ]

    private static let longOptions: [String: Entry] = {
        var table: [String: Entry] = [
            "request": Entry(option: .method, takesArgument: true),
            "header": Entry(option: .header, takesArgument: true),
            "user-agent": Entry(option: .userAgent, takesArgument: true),
            "referer": Entry(option: .referer, takesArgument: true),
            "cookie": Entry(option: .cookie, takesArgument: true),
            "data": Entry(option: .data, takesArgument: true),
            "data-raw": Entry(option: .dataRaw, takesArgument: true),
            "data-binary": Entry(option: .dataBinary, takesArgument: true),
            "data-ascii": Entry(option: .dataASCII, takesArgument: true),
            "data-urlencode": Entry(option: .dataURLEncode, takesArgument: true),
            "json": Entry(option: .json, takesArgument: true),
            "form": Entry(option: .form, takesArgument: true),
            "form-string": Entry(option: .formString, takesArgument: true),
            "upload-file": Entry(option: .uploadFile, takesArgument: true),
            "user": Entry(option: .user, takesArgument: true),
            "url": Entry(option: .url, takesArgument: true),
            "url-query": Entry(option: .urlQuery, takesArgument: true),
            "oauth2-bearer": Entry(option: .oauth2Bearer, takesArgument: true),
            "get": Entry(option: .get, takesArgument: false),
            "head": Entry(option: .head, takesArgument: false),
            "compressed": Entry(option: .compressed, takesArgument: false),
            "insecure": Entry(option: .insecure, takesArgument: false),
            "location": Entry(option: .location, takesArgument: false),
            "location-trusted": Entry(option: .location, takesArgument: false),
            "globoff": Entry(option: .globOff, takesArgument: false),
            "path-as-is": Entry(option: .pathAsIs, takesArgument: false),
            "config": Entry(option: .config, takesArgument: true),
            "next": Entry(option: .next, takesArgument: false)
        ]
        let quiet = "it changes what curl prints, not the request"
        for name in [
            "silent", "show-error", "verbose", "include", "no-buffer", "progress-bar", "no-progress-meter",
            "styled-output", "raw", "tcp-nodelay", "fail-early", "create-dirs", "remote-time", "junk-session-cookies",
            "disable", "manual", "version", "help", "trace-time", "no-keepalive", "ipv4", "ipv6", "use-ascii",
            "list-only", "append", "proxytunnel", "remote-name", "remote-name-all", "remote-header-name", "parallel",
            "ssl", "ssl-reqd", "sslv2", "sslv3", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3", "tr-encoding",
            "basic", "netrc", "netrc-optional", "anyauth", "digest", "ntlm", "negotiate", "fail", "fail-with-body",
            "http1.0", "http1.1", "http2", "http2-prior-knowledge", "http3", "http3-only", "http0.9", "ssl-no-revoke",
            "ssl-allow-beast", "cert-status", "false-start", "suppress-connect-headers", "xattr", "proxy-insecure",
            "post301", "post302", "post303", "ignore-content-length", "crlf", "compressed-ssh",
            "disallow-username-in-url"
        ] {
            table[name] = Entry(option: .ignored(why: quiet), takesArgument: false)
        }
        for name in [
            "output", "proxy", "max-time", "write-out", "cookie-jar", "dump-header", "range", "time-cond", "cert",
            "key", "cacert", "capath", "proxy-user", "speed-limit", "speed-time", "continue-at", "telnet-option",
            "quote", "ftp-port", "connect-timeout", "retry", "retry-delay", "retry-max-time", "max-redirs",
            "resolve", "connect-to", "interface", "limit-rate", "noproxy", "local-port", "expect100-timeout",
            "keepalive-time", "unix-socket", "abstract-unix-socket", "trace", "trace-ascii", "stderr", "proto",
            "proto-redir", "proto-default", "dns-servers", "preproxy", "tls-max", "ciphers", "pinnedpubkey",
            "crlfile", "engine", "cert-type", "key-type", "pass", "max-filesize", "output-dir", "netrc-file",
            "happy-eyeballs-timeout-ms", "request-target", "socks4", "socks4a", "socks5", "socks5-hostname",
            "proxy-header", "aws-sigv4", "delegation", "service-name", "sasl-authzid", "login-options", "mail-from",
            "mail-rcpt", "mail-auth", "hostpubmd5", "hostpubsha256", "pubkey", "krb", "random-file", "egd-file",
            "parallel-max", "rate", "dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "tls13-ciphers",
            "curves", "doh-url", "alt-svc", "hsts", "etag-save", "etag-compare", "proxy-cacert", "proxy-cert",
            "proxy-key", "proxy-pass", "proxy-ciphers", "retry-connrefused", "variable", "ftp-method"
        ] {
            let why =
                name == "request-target"
                ? "a case's request target is its path"
                : "it sets how curl connects or where it writes, not the request"
            table[name] = Entry(
                option: .ignored(why: why),
                takesArgument: !["retry-connrefused"].contains(name))
        }
        return table
    }()
}
