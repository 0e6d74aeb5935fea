import FileIO
import PositionedYAML
import TargetModel
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

/// The user's default options, per command, in `$XDG_CONFIG_HOME/moya/config.yaml`
/// (`~/.config/moya/config.yaml`), as curl's `.curlrc` and HTTPie's `config.json` keep them:
///
/// ```yaml
/// call: [--retry, "2", --timeout, "30"]
/// request: [--print, hb]
/// import openapi: [--force]
/// ```
///
/// They go right after the command's name, so what the command line gives later wins. Never read
/// from the current folder (a cloned repository's file could add `--proxy`); a file others may
/// write, or another user's, is refused; `--no-config` skips it.
enum OptionsFile {
    /// The most the file may hold.
    static let limit = 64 * 1024

    /// `arguments` with the file's options for their command inserted after its name (and
    /// `--no-config` removed, reading nothing); unchanged when there is no file.
    static func applied(to arguments: [String]) throws -> [String] {
        var arguments = arguments
        let separator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        if let skip = arguments[..<separator].firstIndex(of: "--no-config") {
            arguments.remove(at: skip)
            return arguments
        }
        guard let command = arguments.first, MoyaCommand.commandNames.contains(command) else { return arguments }
        var environment: [String: String] = [:]
        for name in ["HOME", "XDG_CONFIG_HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        guard let folder = TargetTrust.userConfigurationFolder(environment: environment) else { return arguments }
        let path = folder + "/config.yaml"
        let shown = DisplayText.escaped(path)
        let bytes: [UInt8]
        switch InputFile.readSmallRegularFile(path, limit: limit) {
        case .missing: return arguments
        case .refused(let why): throw CommandFailure(.usage, "cannot read the options file \(shown): \(why)")
        case .contents(let contents, let permissions, let owner):
            if permissions & 0o022 != 0 {
                throw CommandFailure(
                    .usage,
                    "the options file \(shown) may be written by others (mode \(String(permissions, radix: 8))): its options would be theirs; chmod go-w \(shown), or give --no-config"
                )
            }
            if owner != getuid() && owner != 0 {
                throw CommandFailure(
                    .usage, "the options file \(shown) belongs to another user; its options are not yours (--no-config)"
                )
            }
            bytes = contents
        }
        let table = try read(bytes, file: shown)
        // `import openapi`, `generate swift`: the two words' entry first.
        if arguments.count >= 2, let options = table[command + " " + arguments[1]] {
            return Array(arguments[..<2]) + options + arguments[2...]
        }
        guard let options = table[command] else { return arguments }
        return [command] + options + arguments.dropFirst()
    }

    /// The file's entries: a map of command names (`call`, `import openapi`) to lists of words,
    /// the first an option; anything else exits 65 at its place.
    static func read(_ bytes: [UInt8], file: String) throws -> [String: [String]] {
        let root: Node
        do throws(YAMLLoadError) {
            root = try YAMLLoader.load(bytes, file: file)
        } catch {
            let first = error.diagnostics[0]
            throw CommandFailure(
                .invalidTargetFile,
                "\(file):\(first.mark.map { "\($0.line):\($0.column): " } ?? " ")\(first.message)")
        }
        func failure(_ mark: Mark, _ message: String) -> CommandFailure {
            CommandFailure(.invalidTargetFile, "\(file):\(mark.line):\(mark.column): \(message)")
        }
        guard case .mapping(let entries, _) = root else {
            throw failure(
                root.mark, "the options file is a map of commands to lists of options, like call: [--retry, \"2\"]")
        }
        let commands = MoyaCommand.commandNames.filter { $0 != "help" }
        var table: [String: [String]] = [:]
        for entry in entries {
            let name = entry.key.text
            let words = name.split(separator: " ")
            guard let first = words.first, commands.contains(String(first)), words.count <= 2 else {
                let hint = Suggestion.closest(to: name, in: commands).map { " (did you mean '\($0)'?)" } ?? ""
                throw failure(
                    entry.key.mark,
                    "'\(DisplayText.escaped(name))' is not a command\(hint); commands: \(commands.joined(separator: ", "))"
                )
            }
            guard case .sequence(let items, let mark) = entry.value else {
                throw failure(entry.value.mark, "'\(name)' takes a list of options, like [--retry, \"2\"]")
            }
            var options: [String] = []
            for item in items {
                guard case .scalar(let scalar) = item else {
                    throw failure(item.mark, "an option or its value is one word (a string)")
                }
                guard !scalar.text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw failure(scalar.mark, "'\(DisplayText.escaped(scalar.text))' holds a control character")
                }
                options.append(scalar.text)
            }
            if let first = options.first, !first.hasPrefix("-") {
                throw failure(
                    items[0].mark,
                    "'\(DisplayText.escaped(first))' is no option: the list starts with one (--name or -x)")
            }
            if options.contains("--") { throw failure(mark, "'--' ends the options; the file holds options only") }
            table[words.joined(separator: " ")] = options
        }
        return table
    }
}
