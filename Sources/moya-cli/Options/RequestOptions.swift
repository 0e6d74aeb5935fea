import ArgumentParser
import MoyaKit
import Sending
import TargetModel
import TextSafety

// The `RequestOptions` group's checks and helpers. Its fields, its table and `RequestArguments` are generated
// (`RequestOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension RequestOptions {
    /// Refuses values and combinations that cannot be sent.
    func validate() throws(OptionsError) {
        for pin in pinnedPublicKeys.flatMap({ $0.split(separator: ";", omittingEmptySubsequences: false) })
        where !TargetFileValidator.isPublicKeyPin(String(pin)) {
            throw OptionsError(
                "--pinned-pubkey '\(DisplayText.escaped(String(pin)))': a pin is sha256// and the 44-character base64 SHA-256 of the key"
            )
        }
        if let session {
            guard SessionFiles.isValidName(session) else {
                throw OptionsError(
                    "--session '\(DisplayText.escaped(session))': a session name is a letter or digit, then letters, digits, '.', '_' and '-' (at most 64)"
                )
            }
            if noCookies { throw OptionsError("--session keeps cookies and --no-cookies keeps none; give one") }
        }
        let limit = SessionConfiguration.maximumInterval
        if let timeout, !(timeout >= 0 && timeout <= limit) {
            throw OptionsError("--timeout must be a number of seconds from 0 (no limit) to \(Int(limit))")
        }
        if let idleTimeout, !(idleTimeout > 0 && idleTimeout <= limit) {
            throw OptionsError("--idle-timeout must be a number of seconds greater than 0 and at most \(Int(limit))")
        }
        if let connectTimeout, !(connectTimeout > 0 && connectTimeout <= limit) {
            throw OptionsError("--connect-timeout must be a number of seconds greater than 0 and at most \(Int(limit))")
        }
        if retry < 0 { throw OptionsError("--retry must be 0 or more") }
        if let maxRedirects, maxRedirects < 0 { throw OptionsError("--max-redirects must be 0 or more") }
        if key != nil && cert == nil { throw OptionsError("--key needs --cert") }
        if let certType {
            guard ["PEM", "DER", "P12"].contains(certType.uppercased()) else {
                throw OptionsError("--cert-type '\(DisplayText.escaped(certType))' is not a type; use PEM, DER or P12")
            }
            if cert == nil { throw OptionsError("--cert-type needs --cert") }
        }
        for entry in resolve {
            if case .failure(let problem) = ConnectionPinning.resolveEntry(entry) {
                throw OptionsError("--resolve '\(DisplayText.escaped(entry))' \(problem.text)")
            }
        }
        for entry in connectTo {
            if let problem = ConnectionPinning.connectToProblem(entry) {
                throw OptionsError("--connect-to '\(DisplayText.escaped(entry))' \(problem.text)")
            }
        }
        if ipv4 && ipv6 { throw OptionsError("-4 resolves to IPv4 only and -6 to IPv6 only; give one") }
        if let interface, interface.isEmpty || interface.unicodeScalars.contains(where: { $0.value <= 0x20 }) {
            throw OptionsError(
                "--interface '\(DisplayText.escaped(interface))' is not an interface, address or host name")
        }
        if let limitRate, limitRate.bytes < 1 { throw OptionsError("--limit-rate must be at least 1 byte per second") }
        for (name, value) in [("--tls-min", tlsMin), ("--tls-max", tlsMax)] {
            if let value, SessionConfiguration.TLSVersion(rawValue: value) == nil {
                throw OptionsError("\(name) '\(DisplayText.escaped(value))': give 1.0, 1.1, 1.2 or 1.3")
            }
        }
        if let minimum = tlsMin.flatMap(SessionConfiguration.TLSVersion.init(rawValue:)),
            let maximum = tlsMax.flatMap(SessionConfiguration.TLSVersion.init(rawValue:)), maximum < minimum
        {
            throw OptionsError("--tls-max \(maximum.rawValue) is older than --tls-min \(minimum.rawValue)")
        }
        for header in headers where HeaderOverride(header) == nil {
            throw OptionsError("--header '\(header)' is not 'Name: value'")
        }
    }

    /// The redirect policy the command line sets (`--no-follow`, `--max-redirects N`), over the
    /// case's and API's `redirects:`; `nil` when it sets none.
    var redirectPolicy: RedirectPolicy? {
        if noFollow { return RedirectPolicy.none }
        return maxRedirects.map { .limit($0) }
    }

    /// The `-A` and `-e` headers, then the `-H` overrides (a later one wins), parsed.
    var headerOverrides: [HeaderOverride] {
        ([userAgent.map { "User-Agent: " + $0 }, referer.map { "Referer: " + $0 }].compactMap { $0 } + headers)
            .compactMap(HeaderOverride.init)
    }
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
