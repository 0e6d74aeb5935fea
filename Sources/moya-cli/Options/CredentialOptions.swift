import ArgumentParser
import FoundationEssentials
import TargetModel
import TargetSpec
import TextSafety

// The `CredentialOptions` group: the plain values the commands use (with their defaults), the table
// that names and describes each option (read by `DirectParser`), and `CredentialArguments`, the
// ArgumentParser declaration made from that table. A new option is a field, an entry and a wrapper.

/// One-off credentials for one request (`call`, `curl`): they replace the file's auth, so a
/// basic-auth or bearer call needs no variable and no edit of the file.
struct CredentialOptions: Equatable {
    /// `-u USER[:PASSWORD]`. Short only: `--user` stays free for a case value named `user`
    /// (httpbin's `basicAuth --user bob`), as every unknown `--name` is.
    var user: String?
    /// `--bearer TOKEN|@FILE|-`.
    var bearer: String?

    /// The most a token read from a file or standard input may take.
    static let tokenLimit = 64 * 1024

    /// Refuses both at once, and empty ones.
    func validate() throws(OptionsError) {
        if user != nil && bearer != nil { throw OptionsError("-u and --bearer both replace the file's auth; give one") }
        if let user, user.isEmpty || user.hasPrefix(":") {
            throw OptionsError("-u needs a user name: -u USER or -u USER:PASSWORD")
        }
        if bearer == "" { throw OptionsError("--bearer needs a token: --bearer TOKEN, --bearer @FILE or --bearer -") }
    }

    /// Refuses `--bearer -` with a body read from standard input too.
    func validate(with overrides: OverrideOptions) throws(OptionsError) {
        guard bearer == "-", overrides.json == "-" || overrides.data == "-" else { return }
        throw OptionsError(
            "--bearer - and \(overrides.json == "-" ? "--json" : "--data") - both read standard input; give one of them as @FILE"
        )
    }

    /// The credential the options give, `nil` for none: `-u USER` asks for the password on the
    /// terminal; `--bearer @FILE` and `--bearer -` read the token's one line.
    func credential() throws -> CommandLineCredential? {
        if let user {
            guard let colon = user.firstIndex(of: ":") else {
                return .basic(user: user, password: try PasswordPrompt.ask(user: user))
            }
            return .basic(user: String(user[..<colon]), password: String(user[user.index(after: colon)...]))
        }
        guard let bearer else { return nil }
        var token = bearer
        if bearer == "-" || bearer.hasPrefix("@") {
            let place = bearer == "-" ? "--bearer -" : "--bearer \(bearer)"
            let contents = try OverrideOptions.contents(
                of: bearer, option: "--bearer", limit: ByteSize(bytes: Self.tokenLimit), spools: false,
                limitNote: "the most a token may take")
            guard case .bytes(let bytes) = contents else { throw CommandFailure(.usage, "\(place): not a token") }
            // One line: the line break that ends a file or `echo` is not part of the token.
            token = String(decoding: bytes, as: UTF8.self)
            while let last = token.unicodeScalars.last, last == "\n" || last == "\r" {
                token.unicodeScalars.removeLast()
            }
            guard !token.isEmpty else {
                throw CommandFailure(.usage, "\(DisplayText.escaped(place)): the token is empty")
            }
        }
        guard !HeaderLine.holdsLineBreak(token) else {
            throw CommandFailure(.usage, "--bearer: the token holds a line break or NUL, which no header can carry")
        }
        return .bearer(token)
    }
}

extension CredentialOptions {
    /// The group's options, as `DirectParser` reads them and `CredentialArguments` declares them.
    static var table: [OptionDeclaration<Self>] { [user, bearer] }

    static var user: OptionDeclaration<Self> {
        .option(
            "-u", valueName: "user[:password]",
            help:
                "Send HTTP basic auth as USER instead of the file's auth, for this call only (as curl -u); without :PASSWORD, asks for it on the terminal (not echoed). The password is redacted like the file's secrets."
        ) {
            $0.user = $1
        }
    }

    static var bearer: OptionDeclaration<Self> {
        .option(
            "--bearer", valueName: "token",
            help:
                "Send 'Authorization: Bearer TOKEN' instead of the file's auth, for this call only (@FILE: the file's one line, -: standard input's). Redacted like the file's secrets."
        ) {
            $0.bearer = $1
        }
    }
}

/// The `CredentialOptions` as ArgumentParser declares them, from the group's table.
struct CredentialArguments: ParsableArguments {
    @Option(CredentialOptions.user) var user: String?
    @Option(CredentialOptions.bearer) var bearer: String?

    /// The values parsed, as the plain group the commands work with.
    var options: CredentialOptions {
        CredentialOptions(user: user, bearer: bearer)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
