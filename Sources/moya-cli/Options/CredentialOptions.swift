import ArgumentParser
import FoundationEssentials
import TargetModel
import TargetSpec
import TextSafety

// The `CredentialOptions` group's checks and helpers. Its fields, its table and `CredentialArguments` are generated
// (`CredentialOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension CredentialOptions {
    /// The most a token read from a file or standard input may take.
    static let tokenLimit = 64 * 1024

    /// Refuses both at once, and empty ones.
    func validate() throws(OptionsError) {
        if user != nil && bearer != nil { throw OptionsError("-u and --bearer both replace the file's auth; give one") }
        if let user, user.isEmpty || user.hasPrefix(":") {
            throw OptionsError("-u needs a user name: -u USER or -u USER:PASSWORD")
        }
        if digest && user == nil { throw OptionsError("--digest answers a challenge with -u USER[:PASSWORD]; add -u") }
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
            let name: String
            let password: String
            if let colon = user.firstIndex(of: ":") {
                name = String(user[..<colon])
                password = String(user[user.index(after: colon)...])
            } else {
                name = user
                password = try PasswordPrompt.ask(user: user)
            }
            return digest ? .digest(user: name, password: password) : .basic(user: name, password: password)
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
