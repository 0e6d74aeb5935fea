extension OptionGroupSpec {
    static let request = OptionGroupSpec(
        name: "RequestOptions", arguments: "RequestArguments",
        doc: [
            "How a request is sent: environment, overrides, TLS, proxy, redirects, retries.", "",
            "A plain value, not ArgumentParser's: a `call` that `DirectParser` parses never makes an",
            "ArgumentParser wrapper, whose runtime metadata is start-up time (budget \"call --stub (github zen)\",",
            "bench/budgets.json).", "`RequestArguments` declares the options and makes one of these."
        ],
        imports: ["MoyaKit"],
        items: [
            .option(
                "environment", "--env", valueName: "name", type: "String?",
                help: "Use the target file's environment NAME.",
                completion: #"CaseCompletion.optionValue(.environmentName, in: ["call", "request", "curl", "check"])"#,
                sample: "staging"),
            .option(
                "baseURL", "--base-url", valueName: "url", type: "String?",
                help: "Send to URL instead of the API's (or the case's) base URL.", sample: "http://127.0.0.1:9/v2"),
            .repeated(
                "headers", "-H", "--header", valueName: "header",
                help: "Add or replace a header, 'Name: value' (repeatable; 'Name:' removes it).",
                doc: ["`-H`/`--header`, as typed."], sample: "X-Trace: 1"),
            .option(
                "userAgent", "-A", valueName: "name", type: "String?",
                help: "As curl's: send 'User-Agent: NAME' ('': none); a -H User-Agent wins.",
                doc: ["`-A NAME`: the User-Agent header, before the `-H`s."], sample: "probe/1"),
            .option(
                "referer", "-e", valueName: "url", type: "String?",
                help: "As curl's: send 'Referer: URL'; a -H Referer wins.",
                doc: ["`-e URL`: the Referer header, before the `-H`s."], sample: "http://127.0.0.1/from"),
            .option(
                "timeout", "-m", "--timeout", valueName: "seconds", type: "Double?",
                help:
                    "Total time a request may take: a decimal number of seconds, 0 for no limit (default: the case's or API's timeout, else none); -m as curl's --max-time.",
                doc: ["`-m`/`--timeout`, in seconds."], parsedAs: "DecimalNumber", sample: "2.5"),
            .option(
                "idleTimeout", "--idle-timeout", valueName: "seconds", type: "Double?",
                help:
                    "Longest a request may go without a byte sent or received: a decimal number of seconds (default: the case's or API's idleTimeout, else 60), as URLSession's request timeout; as curl's --speed-limit 1 --speed-time.",
                doc: ["`--idle-timeout`, in seconds."], parsedAs: "DecimalNumber", sample: "1.5"),
            .option(
                "connectTimeout", "--connect-timeout", valueName: "seconds", type: "Double?",
                help:
                    "Time connecting may take: a decimal number of seconds (default: the API's connectTimeout, else 10).",
                doc: ["`--connect-timeout`, in seconds."], parsedAs: "DecimalNumber", sample: "1"),
            .option(
                "retry", "--retry", valueName: "n", type: "Int", initial: "0",
                help:
                    "Retry up to N times on timeouts, failures to resolve or connect, reset connections, and HTTP 408, 429, 500, 502, 503, 504; waits 0.5 s, 1 s, 2 s... (at most 30 s) or as Retry-After says. Only idempotent methods unless --retry-all; never with --stub.",
                sample: "3"),
            .flag(
                "retryAll", "--retry-all",
                help: "With --retry: also retry methods that are not idempotent (POST, PATCH, CONNECT, PURGE...)."),
            .flag("insecure", "-k", "--insecure", help: "Do not verify TLS certificates."),
            .option(
                "cacert", "--cacert", valueName: "file", type: "String?",
                help: "Trust the certificate authorities in FILE (PEM).", sample: "ca.pem"),
            .option(
                "crlfile", "--crlfile", valueName: "file", type: "String?",
                help:
                    "As curl's: refuse a server certificate revoked by the certificate revocation list in FILE (PEM; wins over the file's tls crlFile).",
                sample: "revoked.crl"),
            .option(
                "cert", "-E", "--cert", valueName: "file", type: "String?",
                help: "Client certificate FILE (PEM); -E as curl's, without its :PASSWORD.",
                sample: "client.pem"),
            .option(
                "key", "--key", valueName: "file", type: "String?", help: "Private key FILE of the client certificate.",
                sample: "client.key"),
            .option(
                "certType", "--cert-type", valueName: "type", type: "String?",
                help:
                    "The --cert FILE's format, as curl's: PEM, DER or P12 (PKCS#12; the default for a FILE ending in .p12 or .pfx).",
                sample: "P12"),
            .option(
                "certPass", "--cert-pass", valueName: "phrase", type: "String?",
                help:
                    "The passphrase of --key or of a PKCS#12 --cert: curl's --pass (redacted in everything printed; a case value named pass keeps --pass).",
                sample: "s3cret"),
            .repeated(
                "pinnedPublicKeys", "--pinned-pubkey", valueName: "hashes",
                help:
                    "Accept only a server whose public key is one of HASHES: sha256//BASE64, several separated by ';' (repeatable; as curl --pinnedpubkey). Replaces the file's tls pins.",
                doc: ["`--pinned-pubkey`, as typed (each may hold several, separated by ';')."],
                sample: "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="),
            .option(
                "proxy", "-x", "--proxy", valueName: "url", type: "String?",
                help: "Use the proxy URL (default: http_proxy, https_proxy, no_proxy); -x as curl's.",
                sample: "http://proxy:3128"),
            .flag(
                "noFollow", "--no-follow",
                help: "Do not follow redirects, whatever the case's or API's redirects: say."),
            .repeated(
                "resolve", "--resolve", valueName: "host:port:address",
                help:
                    "As curl's: connect to ADDRESS (several separated by ',') for HOST:PORT, TLS still verified for HOST (repeatable; before the environment's resolve:).",
                doc: ["`--resolve HOST:PORT:ADDRESS[,ADDRESS...]`, as typed."], sample: "api.example.com:443:127.0.0.1"),
            .repeated(
                "connectTo", "--connect-to", valueName: "host1:port1:host2:port2",
                help:
                    "As curl's: a connection to HOST1:PORT1 goes to HOST2:PORT2 instead; the request and TLS still name HOST1 (repeatable).",
                doc: ["`--connect-to HOST1:PORT1:HOST2:PORT2`, as typed."], sample: "api.example.com:443:127.0.0.1:8443"
            ),
            .flag("ipv4", "-4", "--ipv4", help: "As curl's: resolve names to IPv4 addresses only."),
            .flag("ipv6", "-6", "--ipv6", help: "As curl's: resolve names to IPv6 addresses only."),
            .option(
                "interface", "--interface", valueName: "name", type: "String?",
                help: "As curl's: send from the network interface, address or host NAME.", sample: "lo"),
            .option(
                "limitRate", "--limit-rate", valueName: "speed", type: "ByteSize?",
                help:
                    "As curl's: receive and send at most SPEED bytes per second (a number, or with K, M, G: 1024-based).",
                doc: ["`--limit-rate`: bytes per second."], sample: "100K"),
            .option(
                "tlsMin", "--tls-min", valueName: "version", type: "String?",
                help:
                    "Accept TLS VERSION (1.0, 1.1, 1.2 or 1.3) or newer only; curl's --tlsv1.2 and --tlsv1.3 are taken as --tls-min 1.2 and 1.3.",
                sample: "1.2"),
            .option(
                "tlsMax", "--tls-max", valueName: "version", type: "String?",
                help: "As curl's: offer TLS up to VERSION (1.0, 1.1, 1.2 or 1.3).", sample: "1.2"),
            .option(
                "ciphers", "--ciphers", valueName: "list", type: "String?",
                help: "As curl's: the TLS 1.2 cipher list, as OpenSSL names it.", sample: "ECDHE-RSA-AES128-GCM-SHA256"),
            .option(
                "tls13Ciphers", "--tls13-ciphers", valueName: "list", type: "String?",
                help: "As curl's: the TLS 1.3 cipher suites.", sample: "TLS_AES_128_GCM_SHA256"),
            .flag(
                "pathAsIs", "--path-as-is",
                help: "As curl's: send /../ and /./ in the path as they are, not squashed."),
            .flag(
                "compressed", "--compressed",
                help: "As curl's; changes nothing: moya-cli always asks for compressed responses and decodes them."),
            .option(
                "session", "--session", valueName: "name", type: "String?",
                help:
                    "Keep the API's cookies between runs in the session NAME: loaded before the first request, saved after each response, in a private file ($XDG_STATE_HOME/moya-cli/sessions/API/NAME, mode 0600).",
                sample: "work"),
            .flag(
                "noCookies", "--no-cookies",
                help:
                    "Keep no cookies: by default the cookies an API's responses set (redirects included) are sent back on its later requests of the run, by RFC 6265's rules."
            ),
            .option(
                "maxRedirects", "--max-redirects", valueName: "n", type: "Int?",
                help:
                    "Follow redirects, at most N (default: the case's or API's redirects:, else follow at most 10).",
                sample: "4"),
            .flag(
                "cache", "--cache",
                help:
                    "Use the HTTP cache for every case, as a file's 'cache: true' does: a fresh stored answer without a request, a stale one revalidated (If-None-Match, If-Modified-Since), a new one stored privately ($XDG_CACHE_HOME/moya) unless private, no-store or sent with credentials."
            ),
            .flag(
                "noCache", "--no-cache",
                help: "Use no HTTP cache, whatever the file's 'cache' says (wins over --cache)."),
            .flag(
                "showSecrets", "--show-secrets",
                help: "Show secrets in logs, curl commands, reports and error messages instead of <redacted>."),
            .option(
                "maxBodySize", "--max-body-size", valueName: "size", type: "ByteSize", initial: ".defaultBodyLimit",
                help:
                    "The most a response body kept in memory may take (--keypath, --format json, a terminal, check's shape comparison): a number of bytes, or with K, M, G (1024-based). A larger body fails with exit 1; bodies streamed to a pipe or --output have no limit. Also caps a request body read from a stream (--json -, --json @FILE, --data -): more exits 64.",
                doc: ["`--max-body-size`: the most a response body kept in memory may take."], sample: "64K")
        ],
        folder: "Options")
}
