import ArgumentParser
import CCleanup
import MoyaKit
import TargetModel
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

@main
struct MoyaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moya-cli",
        abstract: "A declarative HTTP API client: call the targets described in YAML target files.",
        discussion: """
            Target files are described in moya-targets(5); commands and exit codes in moya-cli(1).
            A target file outside ~/.config/moya/targets and MOYA_TRUSTED_TARGETS, and not trusted by its \
            content with 'moya-cli trust FILE', is untrusted: it runs no token command and reads only the \
            environment variables MOYA_ALLOW_ENV allows (see SECURITY in moya-cli(1)).
            Default options per command come from $XDG_CONFIG_HOME/moya/config.yaml (~/.config/moya/config.yaml), \
            e.g. 'call: [--retry, "2"]'; the command line wins, --no-config skips the file.
            call and curl keep each valid target file's parsed tree in the load cache \
            ($XDG_CACHE_HOME/moya-cli/loaded) and use it while the file is unchanged; MOYA_NO_LOAD_CACHE=1 turns it off.
            """,
        version: MoyaCommand.version,
        subcommands: [
            List.self, Validate.self, Call.self, Request.self, Curl.self, Check.self, Import.self, Generate.self,
            Auth.self, Serve.self, Trust.self, Session.self
        ]
    )

    /// The subcommands' names, and ArgumentParser's `help`: spelled out, since every run checks
    /// its first word against them, and deriving them (`derivedCommandNames`) costs about 9 million
    /// instructions of protocol-conformance lookups (`String(describing:)` of each command type,
    /// which scans the whole static binary's conformance records): a third of a live call.
    /// `MoyaCommandTests` checks they are the names ArgumentParser derives.
    static let commandNames = [
        "list", "validate", "call", "request", "curl", "check", "import", "generate", "auth", "serve", "trust",
        "session", "help"
    ]

    /// The names ArgumentParser derives from `configuration.subcommands`, with `help`.
    static var derivedCommandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// The version `--version` prints.
    static let version = "0.1.0"

    static func main() {
        // SIGPIPE ignored (a closed stdout is a write error, reported as such); SIGINT, SIGTERM
        // and SIGHUP remove the temporary files this run made before it ends.
        moya_signals_install(-1)
        protectTrustedPlaces()
        // The user's default options first (the command line after them wins), then curl's
        // dotted names in moya-cli's spelling.
        var arguments = Array(CommandLine.arguments.dropFirst())
        do {
            try reportingFailures { arguments = CurlSpellings.rewritten(try OptionsFile.applied(to: arguments)) }
        } catch {
            exit(reporting: error)
        }
        // `--version` alone, as ArgumentParser would print it: building its command tree first
        // derives every command's name with `String(describing:)`, 13 million instructions of
        // protocol-conformance lookups for five bytes (budget "--version"). `MoyaCommandTests`
        // checks the output is ArgumentParser's.
        if arguments == ["--version"] {
            StandardStream.output.write(version + "\n")
            terminate(0)
        }
        if let shell = CompletionScriptPatches.requestedShell(in: arguments) {
            StandardStream.output.write(CompletionScriptPatches.script(for: shell) + "\n")
            terminate(0)
        }
        if let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) {
            let hint = Suggestion.closest(to: first, in: commandNames).map { " (did you mean '\($0)'?)" } ?? ""
            StandardStream.error.write(
                "moya-cli: error: unknown command '\(DisplayText.escaped(first))'\(hint); "
                    + "commands: \(commandNames.joined(separator: ", ")) (see 'moya-cli --help')\n")
            terminate(ExitStatus.usage.rawValue)
        }
        do {
            if let invocation = directlyParsed(arguments) {
                try invocation.run()
            } else {
                // Only `call` and `check` have `--record`; another command refuses `--record=NAME` as written.
                let recording = arguments.first == "call" || arguments.first == "check"
                var command = try parseAsRoot(
                    recording
                        ? RecordOptions.spelledForArgumentParser(arguments)
                        : arguments.first == "serve" ? Serve.spelledForArgumentParser(arguments) : arguments)
                try command.run()
            }
        } catch {
            exit(reporting: error)
        }
        terminate(0)
    }

    /// Ends the process with `status`.
    ///
    /// Everything moya-cli prints goes out with write(2) and its files are closed by now, so the
    /// libraries' exit handlers are skipped: they have nothing left to save, and OpenSSL's
    /// clean-up is a measurable part of a live call (`make bench`'s live GET).
    ///
    /// A failed write to stdout overrides `status`: 141, quietly, when the reader closed the pipe
    /// (as a process killed by SIGPIPE would end, without being killed); 74 with the reason
    /// otherwise (disk full, I/O error, a closed descriptor), since what was asked for is lost.
    static func terminate(_ status: Int32) -> Never {
        fflush(nil)
        if let failure = StandardStream.failure {
            if failure.kind == .brokenPipe { _exit(ExitStatus.brokenPipe.rawValue) }
            StandardStream.error.write("moya-cli: error: \(failure.message)\n")
            _exit(ExitStatus.cannotWriteOutput.rawValue)
        }
        _exit(status)
    }

    /// `call`, `curl`, `validate`, `list` and `check` command lines parsed without ArgumentParser (see `DirectParser`), or `nil`
    /// for ArgumentParser to parse.
    static func directlyParsed(_ arguments: [String]) -> (any DirectlyParsable)? {
        guard let name = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "call": return DirectParser.parse(rest, as: CallInvocation.self)
        case "request": return DirectParser.parse(rest, as: RequestInvocation.self)
        case "curl": return DirectParser.parse(rest, as: CurlInvocation.self)
        case "validate": return DirectParser.parse(rest, as: ValidateInvocation.self)
        case "list": return DirectParser.parse(rest, as: ListInvocation.self)
        case "check": return DirectParser.parse(rest, as: CheckInvocation.self)
        default: return nil
        }
    }

    /// Exits for `error` the way ArgumentParser does, but with errors in the house style
    /// (`moya-cli: error: ...` on stderr) and help on stdout.
    static func exit(reporting error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { StandardStream.output.write(message + "\n") }
        } else if !message.isEmpty {
            let text = message.hasPrefix("Error: ") ? "moya-cli: error: " + message.dropFirst("Error: ".count) : message
            StandardStream.error.write(text + "\n")
        }
        terminate(code.rawValue)
    }
}
