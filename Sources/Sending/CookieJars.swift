import CurlTransport
import MoyaKit
import Synchronization
import TargetSpec

/// The cookie store of each API in a run, as each Alamofire session keeps its own: every request
/// of one API (a `check` chain, the pages of `--all`, the hops of a redirect) shares its store,
/// and no API's cookies reach another's requests. With `--session`, an API's store starts from
/// its session file and is saved to it after each response.
package final class CookieJars: Sendable {
    private let stores = Mutex<[String: CookieStore]>([:])
    /// `--session NAME`'s files; `nil`: the cookies last one run.
    package let session: SessionFiles?

    /// Creates jars with no store yet.
    package init(session: SessionFiles? = nil) {
        self.session = session
    }

    /// The store of `api`, made on first use (from its session file, with `--session`).
    package func store(for api: String) -> CookieStore {
        stores.withLock { stores in
            if let existing = stores[api] { return existing }
            let made = CookieStore()
            if let session {
                let lines = session.load(api: api)
                if !lines.isEmpty {
                    do throws(TransportError) {
                        try made.load(netscapeLines: lines)
                    } catch {
                        session.warn("cannot load the session \(session.path(of: api)): \(error.message)")
                    }
                }
            }
            stores[api] = made
            return made
        }
    }

    /// Saves `api`'s cookies to its session file, if there is a session and a store.
    package func save(api: String) {
        guard let session else { return }
        stores.withLock { stores in
            guard let store = stores[api] else { return }
            do throws(TransportError) {
                session.save(api: api, lines: try store.netscapeLines())
            } catch {
                session.warn("cannot read the cookies to keep in \(session.path(of: api)): \(error.message)")
            }
        }
    }

    /// The plugin that saves an API's session after each of its responses; `nil` without one.
    package var sessionPlugin: (any PluginType)? {
        session == nil ? nil : SessionSavingPlugin(jars: self)
    }
}

/// Saves the session of a target's API once its response (any, a failure's too) has come.
private struct SessionSavingPlugin: PluginType {
    let jars: CookieJars

    func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
        guard let target = target as? DynamicTarget, target.keepsCookies else { return }
        jars.save(api: target.apiName)
    }
}
