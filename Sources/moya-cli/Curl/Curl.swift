import ArgumentParser
import CurlTransport
import MoyaKit
import Sending
import TargetSpec
import TextSafety

// `curl`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into Curl+Generated.swift (`make options`).
extension MoyaCommand.Curl {
    static let configuration = CommandConfiguration(
        abstract: "Print the curl command that sends the same request as 'call'; nothing is sent.",
        discussion: """
            The command reproduces the method (with -X whenever curl would pick another one for the \
            body, as for a GET with a body), URL, headers and body (data, file upload or multipart \
            parts) and the transfer options (-L, timeouts, TLS, proxy). Secrets are shown as <redacted> \
            unless --show-secrets. --retry and --retry-all have no effect here.
            """,
        helpNames: []
    )

    func validate() throws {
        try credentialArguments.validate(
            with: overrideArguments, habits: curlHabitArguments, request: requestArguments)
    }

    func run() throws {
        try CurlInvocation(self).run()
    }
}

/// The curl command for a target: the request as the provider would prepare it, plus transfer options.
struct CurlCommandBuilder {
    var target: DynamicTarget
    var request: RequestOptions
    /// `--query`, `--json`, `--data`.
    var override: RequestOverridePlugin?

    func command() throws -> String {
        var urlRequest: URLRequest
        do {
            urlRequest = try target.endpoint.urlRequest()
        } catch {
            throw CommandFailure(.usage, error.description)
        }
        for plugin in RequestPlugins.base(headerOverrides: request.headerOverrides, override: override) {
            urlRequest = plugin.prepare(urlRequest, target: target)
        }
        // `{$uuid}` and the like as one request would have them; curl makes none of its own.
        if RequestPreparationPlugin.hasMarkers(urlRequest) {
            RequestPreparationPlugin.substitute(DynamicValues(), in: &urlRequest)
        }
        if let hook = target.preparation?.hook {
            StandardStream.error.write(
                DisplayText.escaped(
                    "moya-cli: warning: the prepare program '\(hook.arguments.first ?? "")' of API '\(hook.apiName)' "
                        + "is not run for a curl command; the headers it adds are missing") + "\n")
        }
        let redactor = SecretRedactor(target: target, request: request)
        var base = CURLCommand(request: urlRequest, redactor: redactor).rendered()
        // An internationalised host as written (curl sends it in punycode itself), not
        // percent-encoded as the URL holds it, which curl refuses.
        if let shown = urlRequest.url?.absoluteString, IDNAHost.urlAsWritten(shown) != shown {
            base = base.replacing(
                ShellQuoting.singleQuoted(shown), with: ShellQuoting.singleQuoted(IDNAHost.urlAsWritten(shown)))
        }
        return Self.inserting(transferOptions(redactor: redactor), into: base)
    }

    /// Options that make curl transfer the way moya-cli does.
    func transferOptions(redactor: SecretRedactor) -> [String] {
        var options: [String] = []
        let redirects = request.redirectPolicy ?? target.redirects
        if redirects.follows { options += ["-L", "--max-redirs", String(redirects.maximumRedirects)] }
        options += ["--connect-timeout", Self.number(request.connectTimeout ?? target.connectTimeout)]
        // The idle limit as curl has it: under a byte a second for that many (whole) seconds.
        let idle = request.idleTimeout ?? target.idleTimeout
        options += ["--speed-limit", "1", "--speed-time", String(max(1, Int(idle.rounded(.up))))]
        if let total = request.timeout ?? target.timeout { options += ["--max-time", Self.number(total)] }
        if request.insecure { options.append("-k") }
        if let cacert = request.cacert { options += ["--cacert", ShellQuoting.singleQuoted(cacert)] }
        if let crlfile = request.crlfile { options += ["--crlfile", ShellQuoting.singleQuoted(crlfile)] }
        if let cert = request.cert { options += ["--cert", ShellQuoting.singleQuoted(cert)] }
        if let key = request.key { options += ["--key", ShellQuoting.singleQuoted(key)] }
        if let type = request.clientCertificateType { options += ["--cert-type", ShellQuoting.singleQuoted(type)] }
        if let pass = request.certPass { options += ["--pass", ShellQuoting.singleQuoted(redactor.redact(pass))] }
        // The pins a request is sent with (`Sender.sessionConfiguration(for:)`): --pinned-pubkey's, else the file's.
        var configuration = SessionConfiguration(request: request)
        if configuration.pinnedPublicKeys.isEmpty { configuration.pinnedPublicKeys = target.pinnedPublicKeys }
        // A trusted file's `tls:` files, as the sender takes them (`TLSFileSettings`).
        TLSFileSettings.apply(target.tlsFiles, to: &configuration)
        if request.crlfile == nil, let file = configuration.revocationListFile {
            options += ["--crlfile", ShellQuoting.singleQuoted(file)]
        }
        if request.cert == nil, let file = configuration.clientCertificateFile {
            options += ["--cert", ShellQuoting.singleQuoted(file)]
            if let key = configuration.clientKeyFile { options += ["--key", ShellQuoting.singleQuoted(key)] }
            if let type = configuration.clientCertificateType {
                options += ["--cert-type", ShellQuoting.singleQuoted(type)]
            }
        }
        if !configuration.pinnedPublicKeys.isEmpty {
            options += [
                "--pinnedpubkey", ShellQuoting.singleQuoted(configuration.pinnedPublicKeys.joined(separator: ";"))
            ]
        }
        if let proxy = request.proxy { options += ["--proxy", ShellQuoting.singleQuoted(redactor.redact(proxy))] }
        // Where connections go and how, as `Sender.sessionConfiguration(for:)` sends them.
        for entry in target.resolve + configuration.resolve {
            options += ["--resolve", ShellQuoting.singleQuoted(entry)]
        }
        for entry in configuration.connectTo { options += ["--connect-to", ShellQuoting.singleQuoted(entry)] }
        switch configuration.ipVersion {
        case .any: break
        case .v4: options.append("-4")
        case .v6: options.append("-6")
        }
        if let interface = configuration.interface { options += ["--interface", ShellQuoting.singleQuoted(interface)] }
        if let rate = configuration.maximumBytesPerSecond { options += ["--limit-rate", String(rate)] }
        if let minimum = configuration.minimumTLSVersion {
            // curl 7.88 has no --tlsv1.0 (its -1/--tlsv1 means 1.0 or newer).
            options.append(minimum == .v1_0 ? "--tlsv1" : "--tlsv" + minimum.rawValue)
        }
        if let maximum = configuration.maximumTLSVersion { options += ["--tls-max", maximum.rawValue] }
        if let ciphers = configuration.ciphers { options += ["--ciphers", ShellQuoting.singleQuoted(ciphers)] }
        if let ciphers = configuration.tls13Ciphers {
            options += ["--tls13-ciphers", ShellQuoting.singleQuoted(ciphers)]
        }
        if configuration.keepsDotSegments { options.append("--path-as-is") }
        // curl signs with SigV4 itself (7.75+): the scope, and the keys as --user.
        if let signing = target.preparation?.awsSigV4 {
            options += [
                "--aws-sigv4", ShellQuoting.singleQuoted("aws:amz:\(signing.region):\(signing.service)"),
                "--user", ShellQuoting.singleQuoted(redactor.redact("\(signing.accessKey):\(signing.secretKey)"))
            ]
            if let token = signing.sessionToken {
                options += ["-H", ShellQuoting.singleQuoted("X-Amz-Security-Token: " + redactor.redact(token))]
            }
        }
        if let destination = CallOutcome.downloadPath(target) {
            options += ["-o", ShellQuoting.singleQuoted(destination)]
        }
        return options
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Puts `options` right after the `curl` word (which may follow a `printf ... |` for binary bodies).
    static func inserting(_ options: [String], into command: String) -> String {
        guard !options.isEmpty else { return command }
        let joined = options.joined(separator: " ")
        if command.hasPrefix("curl") { return "curl " + joined + command.dropFirst(4) }
        if let range = command.firstRange(of: "| curl") {
            return command[..<range.upperBound] + " " + joined + command[range.upperBound...]
        }
        return command
    }
}
