import PositionedYAML

/// Why a template could not be filled in when a request was built (exit 64).
public enum TemplateRenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `${VAR}` with no fallback, and VAR is neither an environment variable nor set in the process.
    case unsetEnvironmentVariable(name: String, mark: Mark)
    /// `${VAR}` with no fallback, and VAR is set but hidden from this untrusted file (`EnvironmentAllowance`).
    case environmentVariableNotAllowed(name: String, mark: Mark)
    /// `{name}` with no argument for `name` (the binder fills every value, so this is a caller bug).
    case missingArgument(name: String, mark: Mark)

    /// Where the reference is in the target file.
    public var mark: Mark {
        switch self {
        case .unsetEnvironmentVariable(_, let mark), .environmentVariableNotAllowed(_, let mark),
            .missingArgument(_, let mark):
            mark
        }
    }

    /// The message, without the location.
    public var description: String {
        switch self {
        case .unsetEnvironmentVariable(let name, _):
            "environment variable '\(name)' is not set; export it, or set it in the environment's 'variables'"
        case .environmentVariableNotAllowed(let name, _):
            "environment variable '\(name)' is set, but this target file is not trusted, so it reads only the variables you allow; "
                + "allow this one with \(EnvironmentAllowance.environmentVariable)=\(name) (colon-separated names, NAME_* for a prefix), "
                + "or trust the file (see SECURITY in moya-cli(1))"
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
    /// This error, saying so when the unset variable is one of `hidden` (set, but not allowed).
    func notingHidden(_ hidden: Set<String>) -> TemplateRenderError {
        guard case .unsetEnvironmentVariable(let name, let mark) = self, hidden.contains(name) else { return self }
        return .environmentVariableNotAllowed(name: name, mark: mark)
    }
}
