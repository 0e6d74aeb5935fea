import CCurl
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The cookies a `Session` keeps, as Alamofire's session keeps them in `HTTPCookieStorage`: every
/// `Set-Cookie` of a response (a followed redirect's included) is stored, and sent back on later
/// requests by RFC 6265's rules (domain and host-only, path, `Secure`, `Max-Age`/`Expires`,
/// deletion). It is libcurl's own cookie engine, shared by every transfer of the sessions given
/// the store (`SessionConfiguration.cookieStore`); libcurl also refuses what RFC 6265 and the
/// public-suffix list refuse, and bounds what a hostile server can make it keep.
///
/// libcurl is loaded when the store is first used, not when it is made. Its share handle is freed
/// with the store, unless an easy handle kept for reuse still points at it: then it stays, as a
/// freed one must never be reached.
public final class CookieStore: Sendable, Hashable {
    private let shared = Mutex<SharedCookies?>(nil)

    /// Creates an empty store.
    public init() {}

    deinit {
        shared.withLock { shared in
            if let shared { shared.release() }
        }
    }

    public static func == (lhs: CookieStore, rhs: CookieStore) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// The share handle transfers attach to (`CURLOPT_SHARE`), made on first use.
    func shareHandle(curl: Libcurl) throws(TransportError) -> UnsafeMutableRawPointer {
        try withShared(curl: curl) { $0.share }
    }

    /// The cookies kept, in libcurl's Netscape cookie-file lines (`CURLINFO_COOKIELIST`), expired
    /// ones left out.
    public func netscapeLines() throws(TransportError) -> [String] {
        let curl = try Libcurl.shared.get()
        return try withShared(curl: curl) { shared throws(TransportError) in
            var list: UnsafeMutablePointer<curl_slist>?
            let code = ccurl_easy_getinfo_slist(curl.api, shared.reader, CURLINFO_COOKIELIST, &list)
            guard code == CURLE_OK else {
                throw TransportError(kind: .other, message: "cannot read the cookies: \(curl.describe(code))")
            }
            defer { if let list { ccurl_slist_free_all(curl.api, list) } }
            var lines: [String] = []
            var node = list
            let now = Self.now()
            while let current = node {
                if let data = current.pointee.data {
                    let line = String(cString: data)
                    if let cookie = Cookie(netscapeLine: line), !cookie.hasExpired(at: now) { lines.append(line) }
                }
                node = current.pointee.next
            }
            return lines
        }
    }

    /// The cookies kept, expired ones left out.
    public func cookies() throws(TransportError) -> [Cookie] {
        try netscapeLines().compactMap { Cookie(netscapeLine: $0) }
    }

    /// Adds cookies given as Netscape cookie-file lines (`CURLOPT_COOKIELIST`); a line libcurl
    /// cannot read is skipped.
    public func load(netscapeLines lines: [String]) throws(TransportError) {
        let curl = try Libcurl.shared.get()
        try withShared(curl: curl) { shared throws(TransportError) in
            for line in lines where Cookie(netscapeLine: line) != nil {
                _ = ccurl_easy_setopt_string(curl.api, shared.reader, CURLOPT_COOKIELIST, line)
            }
        }
    }

    /// Forgets every cookie.
    public func removeAll() throws(TransportError) {
        let curl = try Libcurl.shared.get()
        try withShared(curl: curl) { shared throws(TransportError) in
            _ = ccurl_easy_setopt_string(curl.api, shared.reader, CURLOPT_COOKIELIST, "ALL")
        }
    }

    /// Seconds since 1970, as cookie expiry times count them.
    static func now() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    private func withShared<T>(curl: Libcurl, _ body: (SharedCookies) throws(TransportError) -> T)
        throws(TransportError) -> T
    {
        try shared.withLock { shared throws(TransportError) -> T in
            if let existing = shared { return try body(existing) }
            let made = try SharedCookies(curl: curl)
            shared = made
            return try body(made)
        }
    }
}

/// A libcurl share handle holding cookies, and an easy handle of its own to read and load them.
private struct SharedCookies: @unchecked Sendable {
    let curl: Libcurl
    let cookies: UnsafeMutablePointer<ccurl_cookie_share>
    let reader: UnsafeMutableRawPointer

    var share: UnsafeMutableRawPointer { cookies.pointee.share }

    init(curl: Libcurl) throws(TransportError) {
        guard let cookies = ccurl_cookie_share_create(curl.api) else {
            throw TransportError(kind: .other, message: "libcurl could not create a cookie store")
        }
        guard let reader = ccurl_easy_init(curl.api) else {
            _ = ccurl_cookie_share_free(curl.api, cookies)
            throw TransportError(kind: .other, message: "libcurl could not create a cookie store")
        }
        _ = ccurl_easy_setopt_ptr(curl.api, reader, CURLOPT_SHARE, cookies.pointee.share)
        // "": the cookie engine on, reading no file.
        _ = ccurl_easy_setopt_string(curl.api, reader, CURLOPT_COOKIEFILE, "")
        self.curl = curl
        self.cookies = cookies
        self.reader = reader
    }

    func release() {
        ccurl_easy_cleanup(curl.api, reader)
        _ = ccurl_cookie_share_free(curl.api, cookies)
    }
}
