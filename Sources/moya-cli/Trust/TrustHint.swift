import MoyaKit
import TargetSpec
import TextSafety

/// The trust step a "next:" hint names after a writer (`import`, `--save-as`) wrote a file that
/// reads variables: followed literally, the hint then works (an untrusted file reads no variable
/// the user did not allow).
enum TrustHint {
    /// `moya-cli trust FILE (or MOYA_ALLOW_ENV=A:B)`, or `nil` when `file` is trusted already or
    /// reads no variable.
    static func step(file: String, variables: [String]) -> String? {
        guard !variables.isEmpty, !TargetTrust(environment: ProcessEnvironment.current).trusts(file) else {
            return nil
        }
        return "moya-cli trust \(ShellQuoting.quotedUnlessPlainASCII(file)) "
            + "(or \(EnvironmentAllowance.environmentVariable)=\(variables.joined(separator: ":")))"
    }
}
