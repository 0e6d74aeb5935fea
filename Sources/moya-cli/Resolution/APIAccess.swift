import Sending
import TargetModel
import TargetSpec
import TextSafety

/// What an API's target file may do on this machine, as `list` and help show it: whether the
/// file is trusted, which environment variables it reads (and whether it may), and the token
/// command it runs. See SECURITY in moya-cli(1).
struct APIAccess {
    /// Whether the file is trusted (`TargetTrust`).
    var isTrusted: Bool
    /// Granted with `moya-cli trust`, but changed since.
    var changedSinceGranted = false
    /// Each variable the file's `${VAR}` references read, with whether this run lets it.
    var variables: [(name: String, state: String)]
    /// The token commands of the API's auth schemes, as shell words.
    var commands: [String]

    init(_ api: APISpec, environment: [String: String]) {
        let view = FileEnvironment.view(for: api.file, environment: environment)
        isTrusted = view.isTrusted
        if case .changedSinceGranted = view.verdict { changedSinceGranted = true }
        let allowance = EnvironmentAllowance(environment: environment)
        variables = api.environmentVariables.map { name in
            let isSet = environment[name] != nil
            if view.isTrusted { return (name, isSet ? "set" : "not set") }
            guard allowance.allows(name) else { return (name, "not allowed") }
            return (name, isSet ? "allowed" : "allowed, not set")
        }
        commands = api.authSchemes.compactMap { scheme in
            guard case .command(let command) = scheme.auth else { return nil }
            return command.arguments.map(ShellQuoting.quotedUnlessPlainASCII).joined(separator: " ")
        }
    }

    /// `list`'s TRUST cell.
    var trustCell: String { isTrusted ? "trusted" : changedSinceGranted ? "changed" : "untrusted" }

    /// `list`'s ENVIRONMENT cell: the names, those the file may not read marked `(not allowed)`.
    var variablesCell: String {
        variables.map { $0.state == "not allowed" ? "\($0.name) (not allowed)" : $0.name }.joined(separator: ", ")
    }

    /// `list`'s COMMAND cell.
    var commandCell: String {
        commands.map { isTrusted ? $0 : "\($0) (not run)" }.joined(separator: "; ")
    }

    /// The lines of API and case help.
    var helpLines: String {
        var text =
            "  trust: "
            + (isTrusted
                ? "trusted (reads any environment variable; may run its token command)"
                : changedSinceGranted
                    ? "changed since 'moya-cli trust' (untrusted until trusted again)"
                    : "untrusted (reads only the variables MOYA_ALLOW_ENV allows; runs no command)") + "\n"
        if !variables.isEmpty {
            text += "  environment: " + variables.map { "\($0.name) (\($0.state))" }.joined(separator: ", ") + "\n"
        }
        for command in commands {
            text +=
                "  command: " + command
                + (isTrusted ? " (run for a live call's token)" : " (not run: the file is not trusted)") + "\n"
        }
        return text
    }
}
