import ArgumentParser
import FoundationEssentials
import MoyaKit
import OrderedJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The `OverrideOptions` group's checks and helpers. Its fields, its table and `OverrideArguments` are generated
// (`OverrideOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension OverrideOptions {
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
    /// `nil` when the body is not replaced. `--json` must be JSON; it is read whole to be checked,
    /// up to `limit` (`--max-body-size`). `--data -` is read up to `limit` too, and with `spools`
    /// a large one waits in a temporary file, not in memory; `--data @FILE` (a regular file)
    /// is streamed from the file.
    func body(limit: ByteSize, spools: Bool = true) throws -> OverrideBody? {
        if let json {
            let bytes: Data
            switch try Self.contents(of: json, option: "--json", limit: limit, spools: false) {
            case .bytes(let read): bytes = read
            // Not reached: the body is read, not spooled, here.
            case .file: throw CommandFailure(.usage, "--json: the body cannot be checked as JSON")
            }
            do {
                try JSONValue.validate(bytes)
            } catch {
                throw CommandFailure(.usage, "--json is not JSON: \(error)")
            }
            return OverrideBody(contents: .bytes(bytes), contentType: "application/json")
        }
        if let data {
            return OverrideBody(
                contents: try Self.contents(of: data, option: "--data", limit: limit, spools: spools), contentType: nil)
        }
        return nil
    }

    /// `TEXT`, `@FILE`'s bytes (a regular file; `@-`… is a file named `-`), or standard input for `-`.
    /// `limitNote`: what one past `limit` is told.
    static func contents(
        of argument: String, option: String, limit: ByteSize, spools: Bool,
        limitNote: String = BodyInput.bodyLimitNote
    ) throws -> BodyInput.Contents {
        if argument == "-" {
            return try BodyInput.read(
                0, limit: limit.bytes, spools: spools, place: "\(option) -", source: "standard input",
                limitNote: limitNote)
        }
        guard argument.hasPrefix("@") else { return .bytes(Data(argument.utf8)) }
        let path = String(argument.dropFirst())
        // Opened without blocking, so a FIFO named here cannot hang the command before it is refused.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            if descriptor >= 0 { close(descriptor) }
            throw CommandFailure(.usage, "\(option) @\(path): not a readable regular file")
        }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        // A large regular file is sent from where it is; a small one (or one that claims no size,
        // in /proc) is read, `--data`'s up to 1 MiB whatever the limit, as before there was one.
        if spools, status.st_size > BodyInput.memoryThreshold {
            return .file(URL(fileURLWithPath: path), keeping: nil)
        }
        let fileLimit = option == "--data" ? max(limit.bytes, BodyInput.memoryThreshold) : limit.bytes
        return try BodyInput.read(
            descriptor, limit: fileLimit, spools: spools, place: "\(option) @\(path)", source: path,
            limitNote: limitNote)
    }
}

/// A body that replaces the case's (`--json`, `--data`), and its type.
struct OverrideBody: Sendable {
    var contents: BodyInput.Contents
    var contentType: String?
}
