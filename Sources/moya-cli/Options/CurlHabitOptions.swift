import ArgumentParser

// The `CurlHabitOptions` group's checks and helpers. Its fields, its table and `CurlHabitArguments` are generated
// (`CurlHabitOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension CurlHabitOptions {
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
