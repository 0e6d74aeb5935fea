import ArgumentParser
import TargetSpec

// The `CurlHabitOptions` group's checks and helpers, and those of the groups of curl letters a
// command lacks (`CurlCommandLetterOptions`, `CheckCurlLetterOptions`). Their fields, tables and
// ArgumentParser declarations are generated (`+Generated.swift`) from the one table of curl's
// letters, `CurlLetter.all` in Sources/OptionSpecs/Declarations/CurlHabitOptions.swift: add or
// change a letter there.

/// `message` when the curl letter was given (a flag).
func curlRefusal(_ given: Bool, _ message: String) -> String? { given ? message : nil }

/// `message` when the curl letter was given (with a value).
func curlRefusal(_ given: String?, _ message: String) -> String? { given.map { _ in message } }

/// A group of curl letters whose `refused` holds the refusal of each one given that moya-cli refuses.
protocol CurlLetterRefusing {
    var refused: [String] { get }
}

extension CurlLetterRefusing {
    /// Refuses the first refused letter given: a usage error naming the moya-cli way.
    func refuseLetters() throws {
        if let message = refused.first { throw CommandFailure(.usage, message) }
    }
}

extension CurlHabitOptions: CurlLetterRefusing {}
extension CurlCommandLetterOptions: CurlLetterRefusing {}
extension CheckCurlLetterOptions: CurlLetterRefusing {}

extension CurlHabitOptions {
    /// Refuses `-L` with `--no-follow`.
    func validate(with request: RequestOptions) throws(OptionsError) {
        if location && request.noFollow {
            throw OptionsError("-L follows redirects and --no-follow does not; give one")
        }
    }

    /// Refuses what has another way here: the refused letters, `-G`, `-f`, `-I` on `curl`, and
    /// `-X` naming another method than the case's (`method`). Once the case is known, as a usage
    /// error of the case (not of the line: `-G` and `-f` are well-formed, and `DirectParser` keeps
    /// the line).
    func check(command: String, caseName: String, method: String) throws {
        try refuseLetters()
        if get {
            throw CommandFailure(
                .usage,
                "-G: the case declares where its parameters go; add or replace a query parameter with --query NAME=VALUE"
            )
        }
        try refuseFail()
        if head && command == "curl" {
            throw CommandFailure(
                .usage,
                "-I: case '\(caseName)' sends \(method), and the case declares the method; "
                    + "moya-cli call -I prints only the status line and headers")
        }
        guard let given = self.method, given.uppercased() != method else { return }
        throw CommandFailure(
            .usage,
            "-X \(given): case '\(caseName)' sends \(method), and the case declares the method; "
                + "use 'moya-cli request \(given) ...' for another")
    }

    /// `-I` of `call`: `output` printing only the status line and headers, checked as --headers-only is.
    func applied(to output: OutputOptions, paging: PagingOptions) throws -> OutputOptions {
        guard head else { return output }
        var output = output
        output.headersOnly = true
        do throws(OptionsError) {
            try output.validate()
            try paging.validate(with: output)
        } catch {
            throw CommandFailure(.usage, "-I (as --headers-only): \(error.message)")
        }
        return output
    }

    /// `check`'s: every case is sent as it is declared.
    func checkForCheck() throws {
        try refuseLetters()
        if get {
            throw CommandFailure(.usage, "-G: check sends each case's parameters where the case declares them")
        }
        if fail {
            throw CommandFailure(
                .usage, "-f: check fails a case whose status its validation refuses already (exit 8); leave -f out")
        }
        if let method {
            throw CommandFailure(.usage, "-X \(method): check sends each case with its own method")
        }
        if head {
            throw CommandFailure(
                .usage,
                "-I: check sends each case as declared; moya-cli call -I prints one case's status line and headers")
        }
    }

    /// `request`'s: its words with `-I`'s HEAD as the METHOD (which `-I` lets the line leave out),
    /// `-X` checked against the METHOD word.
    func requestWords(_ words: [String]) throws -> [String] {
        try refuseLetters()
        if get {
            throw CommandFailure(
                .usage, "-G: give query parameters as NAME==VALUE items, or with --query NAME=VALUE")
        }
        try refuseFail()
        var words = words
        // `[API] METHOD PATH|URL`: the METHOD is the first word unless the first is an API.
        let methodIndex = words.first.map { AdHocPath.isURL($0) || Self.isMethodLike($0) } == true ? 0 : 1
        if head {
            if methodIndex < words.count, Self.isMethodLike(words[methodIndex]) {
                guard words[methodIndex] == "HEAD" else {
                    throw CommandFailure(
                        .usage, "-I sends HEAD, and the line says \(words[methodIndex]); leave out -I or the METHOD")
                }
            } else if methodIndex <= words.count {
                words.insert("HEAD", at: methodIndex)
            }
        }
        if let given = method, methodIndex < words.count {
            if AdHocPath.isURL(words[methodIndex]) {
                // A URL without METHOD (xh's habit): -X names it.
                words.insert(given.uppercased(), at: methodIndex)
            } else if given.uppercased() != words[methodIndex].uppercased() {
                throw CommandFailure(
                    .usage,
                    "-X \(given): the request's METHOD is \(words[methodIndex]); give the method once, as METHOD")
            }
        }
        return words
    }

    private func refuseFail() throws {
        if fail {
            throw CommandFailure(
                .usage,
                "-f: moya-cli fails on an HTTP error already: a status the case's validation refuses exits 3, 4 or 5 "
                    + "(2xx only when the file writes no 'validation'), with the body printed; leave -f out")
        }
    }

    /// A METHOD word: capital letters only (`GET`, `PROPFIND`), which no API name or path is in practice.
    private static func isMethodLike(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}
