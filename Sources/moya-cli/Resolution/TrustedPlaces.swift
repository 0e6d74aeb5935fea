import FileIO
import MoyaKit
import Sending
import TargetAuth
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

extension MoyaCommand {
    /// Nothing this run writes - a download, `-o`, a report, an import - may create or replace a
    /// file in a trusted target folder, the trust store's folder, the token cache or the sessions: a file written
    /// there would be trusted (and could run a command), believed as a token, or sent as an API's cookies. Only the user puts files there.
    /// Read from the few variables that name those places, so start-up stays cheap; the paths are
    /// resolved only when something is written.
    static func protectTrustedPlaces() {
        var environment: [String: String] = [:]
        for name in ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", TargetTrust.environmentVariable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        // The trust store's folder too: a file written there could grant trust.
        let store = TrustGrants.storePath(environment: environment).map { path in
            String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        }
        let folders =
            TargetTrust.declaredPaths(environment: environment)
            + [
                TokenCacheStore.defaultFolder(environment: environment), store,
                SessionFiles.defaultRoot(environment: environment)
            ].compactMap { $0 }
        OutputFile.protect(
            folders: folders,
            reason:
                "which moya-cli never writes to (a trusted target folder, the trust store, the token cache or the sessions; "
                + "see SECURITY in moya-cli(1))")
    }
}
