import CurlTransport
import Synchronization

/// The cookie store of each API in a run, as each Alamofire session keeps its own: every request
/// of one API (a `check` chain, the pages of `--all`, the hops of a redirect) shares its store,
/// and no API's cookies reach another's requests.
package final class CookieJars: Sendable {
    private let stores = Mutex<[String: CookieStore]>([:])

    /// Creates jars with no store yet.
    package init() {}

    /// The store of `api`, made on first use.
    package func store(for api: String) -> CookieStore {
        stores.withLock { stores in
            if let existing = stores[api] { return existing }
            let made = CookieStore()
            stores[api] = made
            return made
        }
    }

    /// The stores made so far, by API.
    package var storesByAPI: [String: CookieStore] {
        stores.withLock { $0 }
    }
}
