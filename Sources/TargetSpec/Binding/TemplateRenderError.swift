import PositionedYAML
import TextSafety

/// Why a template could not be filled in when a request was built (exit 64).
public enum TemplateRenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `${VAR}` with no fallback, and VAR is neither an environment variable nor set in the process.
    case unsetEnvironmentVariable(name: String, mark: Mark)
    /// `${VAR}` with no fallback, and VAR is set but hidden from this untrusted file
    /// (`EnvironmentAllowance`); `hidden` names every variable the file reads that is set but hidden
    /// (VAR first), so one run says them all; `extendsAllowance`: `MOYA_ALLOW_ENV` is set already.
    case environmentVariableNotAllowed(
        name: String, mark: Mark, hidden: [String] = [], extendsAllowance: Bool = false, file: String = "")
    /// `{name}` with no argument for `name` (the binder fills every value, so this is a caller bug).
    case missingArgument(name: String, mark: Mark)

    /// Where the reference is in the target file.
    public var mark: Mark {
        switch self {
        case .unsetEnvironmentVariable(_, let mark), .environmentVariableNotAllowed(_, let mark, _, _, _),
            .missingArgument(_, let mark):
            mark
        }
    }

    /// The message, without the location.
    public var description: String {
        switch self {
        case .unsetEnvironmentVariable(let name, _):
            "environment variable '\(name)' is not set; export it, or set it in the environment's 'variables'"
        case .environmentVariableNotAllowed(let name, _, let hidden, let extendsAllowance, let file):
            Self.notAllowedMessage(name: name, hidden: hidden, extendsAllowance: extendsAllowance, file: file)
        case .missingArgument(let name, _):
            "no argument for placeholder '{\(name)}'"
        }
    }

    /// The error as a diagnostic of `file`, so it renders with the source line and a caret.
    public func diagnostic(file: String) -> Diagnostic {
        Diagnostic(.error, file: file, mark: mark, message: description)
    }
}

extension TemplateRenderError {
    /// This error, saying so when the unset variable is one of `hidden` (set, but not allowed),
    /// with every other variable `file` reads (`referenced`) that is hidden too.
    func notingHidden(_ hidden: Set<String>, referenced: [String], file: String) -> TemplateRenderError {
        guard case .unsetEnvironmentVariable(let name, let mark) = self, hidden.contains(name) else { return self }
        return .environmentVariableNotAllowed(
            name: name, mark: mark, hidden: [name] + referenced.filter { $0 != name && hidden.contains($0) },
            extendsAllowance: hidden.contains(EnvironmentAllowance.environmentVariable), file: file)
    }

    /// One message naming every hidden variable, the exact line that allows them, and trust.
    static func notAllowedMessage(name: String, hidden: [String], extendsAllowance: Bool, file: String) -> String {
        let names = hidden.isEmpty ? [name] : hidden
        let variable = EnvironmentAllowance.environmentVariable
        let line =
            extendsAllowance
            ? "\(variable)=\"$\(variable):\(names.joined(separator: ":"))\""
            : "\(variable)=\(names.joined(separator: ":"))"
        let listed =
            names.count == 1
            ? "" : " It reads \(names.count) variables you have set and it may not: \(names.joined(separator: ", "))."
        let trust =
            file.isEmpty
            ? "trust the file"
            : "trust the file by its content: moya-cli trust \(ShellQuoting.quotedUnlessPlainASCII(file))"
        return
            "environment variable '\(name)' is set, but this target file is not trusted, so it reads only the variables you allow."
            + listed
            + " Allow \(names.count == 1 ? "it" : "them") with \(line) (export it, or put it before the command), "
            + "or \(trust) (see SECURITY in moya-cli(1))"
    }
}
