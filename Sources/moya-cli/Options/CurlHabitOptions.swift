import ArgumentParser

// The `CurlHabitOptions` group: the plain values the commands use (with their defaults), the table
// that names and describes each option (read by `DirectParser`), and `CurlHabitArguments`, the
// ArgumentParser declaration made from that table. A new option is a field, an entry and a wrapper.

/// curl's short options that a curl user types out of habit (`call`, `curl`): each is taken where
/// curl's meaning fits here, or refused with the moya-cli way, instead of falling through to the
/// case's values (`'-X' is not an int for value 'page'`). `-d`, `-u` and `-s` are declared with
/// what they mean (`--data`, credentials, `--silent`); these are the rest. Short names only, as
/// curl users write them: a long `--get` or `--location` stays free for a case's value.
struct CurlHabitOptions: Equatable {
    /// `-X METHOD`: accepted when it is the case's method.
    var method: String?
    /// `-L`: redirects are followed already.
    var location = false
    /// `-G`: refused.
    var get = false
    /// `-f`: refused.
    var fail = false

    /// Refuses `-L` with `--no-follow`.
    func validate(with request: RequestOptions) throws(OptionsError) {
        if location && request.noFollow {
            throw OptionsError("-L follows redirects and --no-follow does not; give one")
        }
    }

    /// Refuses what has another way here: `-G`, `-f`, and `-X` naming another method than the
    /// case's (`method`). Once the case is known, as a usage error of the case (not of the line:
    /// `-G` and `-f` are well-formed, and `DirectParser` keeps the line).
    func check(caseName: String, method: String) throws {
        if get {
            throw CommandFailure(
                .usage,
                "-G: the case declares where its parameters go; add or replace a query parameter with --query NAME=VALUE"
            )
        }
        if fail {
            throw CommandFailure(
                .usage,
                "-f: moya-cli fails on an HTTP error already: a status the case's validation refuses exits 3, 4 or 5 "
                    + "(2xx only when the file writes no 'validation'), with the body printed; leave -f out")
        }
        guard let given = self.method, given.uppercased() != method else { return }
        throw CommandFailure(
            .usage,
            "-X \(given): case '\(caseName)' sends \(method), and the case declares the method; "
                + "use 'moya-cli request \(given) ...' for another")
    }
}

extension CurlHabitOptions {
    /// The group's options, as `DirectParser` reads them and `CurlHabitArguments` declares them.
    static var table: [OptionDeclaration<Self>] { [method, location, get, fail] }

    static var method: OptionDeclaration<Self> {
        .option(
            "-X", valueName: "method",
            help:
                "As curl's: accepted when METHOD is the case's; the case declares its method, so another is refused (see 'moya-cli request')."
        ) {
            $0.method = $1
        }
    }

    static var location: OptionDeclaration<Self> {
        .flag(
            "-L",
            help:
                "As curl's: accepted and changes nothing, since redirects are followed already (--no-follow turns that off)."
        ) {
            $0.location = true
        }
    }

    static var get: OptionDeclaration<Self> {
        .flag("-G", help: "Refused: the case declares where its parameters go; use --query NAME=VALUE.") {
            $0.get = true
        }
    }

    static var fail: OptionDeclaration<Self> {
        .flag("-f", help: "Refused: an HTTP error exits 3, 4 or 5 already (see moya-cli(1), EXIT STATUS).") {
            $0.fail = true
        }
    }
}

/// The `CurlHabitOptions` as ArgumentParser declares them, from the group's table.
struct CurlHabitArguments: ParsableArguments {
    @Option(CurlHabitOptions.method) var method: String?
    @Flag(CurlHabitOptions.location) var location: Bool
    @Flag(CurlHabitOptions.get) var get: Bool
    @Flag(CurlHabitOptions.fail) var fail: Bool

    /// The values parsed, as the plain group the commands work with.
    var options: CurlHabitOptions {
        CurlHabitOptions(method: method, location: location, get: get, fail: fail)
    }
}
