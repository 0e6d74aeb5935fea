import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MoyaKit

// The `OverrideOptions` group: the plain values the commands use, the fast start-up path's
// option table (`directOptions`), and `OverrideArguments`, their ArgumentParser declaration with
// the help texts. A new option is added here, in all three.

/// Changes to one call's request for exploring an API: a query parameter set or removed, the body
/// replaced (`call` and `curl`; declared for ArgumentParser by `OverrideArguments`). The case stays
/// the unit: there are no free-form URLs. `-v` and `--curl` show the request as changed.
struct OverrideOptions: Equatable {
    /// `--query NAME=VALUE` (set, replacing every NAME) and `--query NAME` (remove), in order.
    var queryEdits: [String] = []
    /// `--json JSON|@FILE|-`.
    var json: String?
    /// `--data TEXT|@FILE|-`.
    var data: String?

    /// Whether the body is replaced.
    var replacesBody: Bool { json != nil || data != nil }

    /// Refuses `--json` with `--data` and a `--query` without a name.
    func validate() throws(OptionsError) {
        if json != nil && data != nil { throw OptionsError("--json and --data both replace the body; give one") }
        for edit in queryEdits where edit.isEmpty || edit.hasPrefix("=") {
            throw OptionsError("--query '\(edit)' needs a NAME: --query NAME=VALUE sets it, --query NAME removes it")
        }
    }

    /// The replacement body and its type, read from the argument, `@FILE` or standard input (`-`);
    /// `nil` when the body is not replaced. `--json` must be JSON.
    func body() throws -> (data: Data, contentType: String?)? {
        if let json {
            let bytes = try Self.contents(of: json, option: "--json")
            do {
                _ = try JSONValue(parsing: bytes)
            } catch {
                throw CommandFailure(.usage, "--json is not JSON: \(error)")
            }
            return (bytes, "application/json")
        }
        if let data { return (try Self.contents(of: data, option: "--data"), nil) }
        return nil
    }

    /// Standard input to its end; a read error is a usage error naming the option (exit 64).
    static func standardInput(option: String) throws -> Data {
        do throws(InputFile.ReadProblem) {
            return Data(try InputFile.readAll(0))
        } catch {
            guard case .system(let code) = error else { return Data() }  // no limit: never too large
            throw CommandFailure(.usage, "\(option) -: cannot read standard input: \(String(cString: strerror(code)))")
        }
    }

    /// `TEXT`, `@FILE`'s bytes (a regular file; `@-`… is a file named `-`), or standard input for `-`.
    static func contents(of argument: String, option: String) throws -> Data {
        if argument == "-" { return try standardInput(option: option) }
        guard argument.hasPrefix("@") else { return Data(argument.utf8) }
        let path = String(argument.dropFirst())
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let bytes = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(.usage, "\(option) @\(path): not a readable regular file")
        }
        return bytes
    }
}

extension OverrideOptions {
    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .repeated("--query") { $0.queryEdits.append($1) },
            .option("--json") { $0.json = $1 },
            .option("--data") { $0.data = $1 },
        ]
    }
}

/// The `OverrideOptions` as ArgumentParser declares them (help texts included).
struct OverrideArguments: ParsableArguments {
    @Option(name: .customLong("query"), help: ArgumentHelp(
        "Set a query parameter (NAME=VALUE, replacing the case's) or remove it (NAME); repeatable.", valueName: "name=value"))
    var queryEdits: [String] = []

    @Option(help: ArgumentHelp("Send this JSON as the body instead of the case's (@FILE: a file's, -: standard input's).",
                               valueName: "json"))
    var json: String?

    @Option(help: ArgumentHelp("Send these bytes as the body instead of the case's (@FILE: a file's, -: standard input's).",
                               valueName: "text"))
    var data: String?

    /// The values parsed, as the plain group the commands work with.
    var options: OverrideOptions {
        OverrideOptions(queryEdits: queryEdits, json: json, data: data)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
