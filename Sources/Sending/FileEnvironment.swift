import Synchronization
import TargetSpec

/// What a target file sees of the process environment: all of it when the file is trusted, else
/// the variables `MOYA_ALLOW_ENV` allows (`EnvironmentAllowance`). Worked out once per file and
/// run: `check` builds a target for every case of a file.
package enum FileEnvironment {
    package struct View: Sendable {
        package var visible: [String: String]
        package var hidden: Set<String>
        package var isTrusted: Bool
    }

    private static let views = Mutex<[String: View]>([:])

    /// The view of `environment` (the process's, the same for the whole run) that `file` gets.
    package static func view(for file: String, environment: [String: String]) -> View {
        if let known = views.withLock({ $0[file] }) { return known }
        let isTrusted = TargetTrust(environment: environment).trusts(file)
        let (visible, hidden) = EnvironmentAllowance(environment: environment).view(
            of: environment, isTrusted: isTrusted)
        let view = View(visible: visible, hidden: hidden, isTrusted: isTrusted)
        views.withLock { $0[file] = view }
        return view
    }

    /// `builder` reading only what its API's file may see.
    package static func restrict(_ builder: inout TargetBuilder, environment: [String: String]) {
        let view = view(for: builder.api.file, environment: environment)
        builder.processEnvironment = view.visible
        builder.hiddenVariableNames = view.hidden
    }
}
