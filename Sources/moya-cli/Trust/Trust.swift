import ArgumentParser
import TargetSpec
import TextSafety

// `trust`'s configuration, checks and run. Its arguments and flags are declared in
// Sources/OptionSpecs/Declarations and generated into Trust+Generated.swift (`make options`).
extension MoyaCommand.Trust {
    static let configuration = CommandConfiguration(
        abstract: "Trust target files by their content, as direnv allow and mise trust do.",
        discussion: """
            Records each FILE (a folder: its *.yaml and *.yml files) by its real path and the SHA-256 of \
            its bytes in $XDG_STATE_HOME/moya/trust (~/.local/state/moya/trust). A trusted file reads any \
            environment variable and may run its token command; once its bytes change (a git pull, an \
            edit) it is untrusted again, and commands say so, until you review it and trust it again. \
            --list shows every grant (trusted, changed or missing); --revoke removes grants. Exit codes: \
            64 a path that cannot be trusted (missing, writable by others), 74 the store cannot be \
            written or is not yours alone; see SECURITY in moya-cli(1).
            """
    )

    func validate() throws {
        if list, revoke || !paths.isEmpty { throw ValidationError("--list takes no paths and no --revoke") }
        if !list, paths.isEmpty { throw ValidationError("name the target files or folders to trust, or --list") }
    }

    func run() throws {
        try reportingFailures {
            try TrustRun(paths: paths, list: list, revoke: revoke).run()
        }
    }
}
