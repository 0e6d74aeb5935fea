import CurlTransport
import HTTPTypes
import MoyaKit
import ResponseCache
import Synchronization
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the HTTP cache did for a response: served it without a request (`hit`), had the server
/// confirm the stored one (`revalidated`, a 304), or got a new one (`miss`).
package enum CacheStatus: String, Sendable {
    case hit, revalidated, miss
}

/// The cache's word on the responses of a run, for `--format json`'s `cache` member.
package final class CacheLedger: Sendable {
    private let recent = Mutex<[(response: Response, status: CacheStatus)]>([])

    package init() {}

    func record(_ response: Response, _ status: CacheStatus) {
        recent.withLock { recent in
            if recent.count >= 64 { recent.removeFirst() }
            recent.append((response, status))
        }
    }

    /// What the cache did for `response`; `nil` when it was not asked.
    package func status(of response: Response) -> CacheStatus? {
        recent.withLock { recent in recent.last { $0.response === response }?.status }
    }
}

/// The HTTP cache in the one sender (RFC 9111, a private cache; `ResponseCache`): for a target
/// that uses it, a fresh stored answer is the result without a request; a stale one is
/// revalidated (`If-None-Match`, `If-Modified-Since`) and a 304 becomes the stored answer; a new
/// answer is stored when it may be. For every target, a 304 to a request that asked for one (its
/// own `If-None-Match` or `If-Modified-Since`, as `--etag-compare` sends) passes validation, as
/// curl exits 0 for it.
package struct ResponseCachePlugin: PluginType {
    /// `nil` with `--no-cache` or no usable cache folder: nothing is looked up or stored.
    package var store: ResponseCacheStore?
    package var ledger: CacheLedger
    /// `-v`'s notes ("from cache", "revalidated").
    package var note: (@Sendable (String) -> Void)?
    /// Requests whose conditional headers the cache added, by URL: their 304 is the cache's to answer.
    private let revalidating = RevalidatingRequests()

    package init(store: ResponseCacheStore?, ledger: CacheLedger, note: (@Sendable (String) -> Void)? = nil) {
        self.store = store
        self.ledger = ledger
        self.note = note
    }

    /// A fresh stored answer, carried from `adapt` to `process` as the failure that ends the request.
    struct StoredAnswer: Error {
        var response: Response
        var age: Int
    }

    package func adapt(_ request: URLRequest, target: any TargetType) -> Result<URLRequest, MoyaError> {
        guard let store, let target = target as? DynamicTarget, target.usesCache, request.httpMethod == "GET",
            let url = request.url?.absoluteString,
            // A URL with a per-request value is never asked for again.
            !DynamicValues.hasMarker(url),
            let entry = store.load(method: "GET", url: url, requestFields: request.headers)
        else { return .success(request) }
        let now = Date().timeIntervalSince1970
        if CachePolicy.isFresh(entry, requestFields: request.headers, now: now) {
            let response = Response(
                statusCode: entry.status, data: entry.body, request: request,
                response: HTTPResponseHead(statusCode: entry.status, headers: entry.fields, url: request.url))
            return .failure(
                .underlying(
                    StoredAnswer(response: response, age: Int(CachePolicy.currentAge(of: entry, now: now))), nil))
        }
        let fields = entry.fields
        // A request with its own conditions keeps them; its 304 is its own.
        guard request.headers[.ifNoneMatch] == nil, request.headers[.ifModifiedSince] == nil,
            fields[.eTag] != nil || fields[.lastModified] != nil
        else { return .success(request) }
        var conditional = request
        if let tag = fields[.eTag] { conditional.headers[.ifNoneMatch] = tag }
        if let modified = fields[.lastModified] { conditional.headers[.ifModifiedSince] = modified }
        revalidating.insert(url)
        return .success(conditional)
    }

    package func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError> {
        let dynamic = target as? DynamicTarget
        switch result {
        case .failure(.underlying(let stored as StoredAnswer, _)):
            note?("from cache (age \(stored.age) s): no request sent")
            ledger.record(stored.response, .hit)
            return Self.validated(stored.response, target.validationType)
        case .success(let response), .failure(.statusCode(let response)):
            guard let request = response.request else { return result }
            let url = request.url?.absoluteString ?? ""
            // Without a store (a stub, --no-cache) nothing was revalidated: no lock taken.
            let ours = store != nil && revalidating.remove(url)
            if response.statusCode == 304, ours, let store, let dynamic, dynamic.usesCache,
                let entry = store.load(method: "GET", url: url, requestFields: request.headers)
            {
                let now = Date().timeIntervalSince1970
                let updated = CachePolicy.freshened(
                    entry, with: response.response?.headers ?? HTTPFields(),
                    requestTime: now - (response.timing?.total ?? 0), responseTime: now)
                store.save(updated)
                let answer = Response(
                    statusCode: updated.status, data: updated.body, request: request,
                    response: HTTPResponseHead(statusCode: updated.status, headers: updated.fields, url: request.url),
                    timing: response.timing)
                note?("revalidated: the server answered 304 Not Modified; the stored response is the answer")
                ledger.record(answer, .revalidated)
                return Self.validated(answer, target.validationType)
            }
            if let store, let dynamic, dynamic.usesCache {
                record(response, request: request, target: dynamic, store: store)
                ledger.record(response, .miss)
            }
            // A 304 the request asked for is what it asked for (curl exits 0 for it).
            if response.statusCode == 304, case .failure = result,
                request.headers[.ifNoneMatch] != nil || request.headers[.ifModifiedSince] != nil
            {
                return .success(response)
            }
            return result
        default:
            return result
        }
    }

    /// Stores a new answer when RFC 9111 and the credential rule allow; an unsafe request's
    /// success removes what is stored for its URL (§4.4).
    private func record(_ response: Response, request: URLRequest, target: DynamicTarget, store: ResponseCacheStore) {
        let method = request.httpMethod ?? "GET"
        let url = request.url?.absoluteString ?? ""
        if !["GET", "HEAD", "OPTIONS", "TRACE"].contains(method), (200..<400).contains(response.statusCode) {
            store.remove(method: "GET", url: url)
            return
        }
        guard let head = response.response, response.hasWholeBody, !DynamicValues.hasMarker(url),
            CachePolicy.refusal(
                method: method, requestFields: request.headers, hasCredentials: Self.hasCredentials(request, target),
                status: response.statusCode, responseFields: head.headers) == nil,
            let varyNames = CachePolicy.varyNames(head.headers)
        else { return }
        let now = Date().timeIntervalSince1970
        store.save(
            CacheEntry(
                method: method, url: url, status: response.statusCode,
                headers: head.headers.map { ($0.name.rawName, $0.value) }, body: response.data,
                requestTime: now - (response.timing?.total ?? 0), responseTime: now,
                varied: varyNames.map { name in (name, HTTPField.Name(name).flatMap { request.headers[$0] }) }))
    }

    /// Whether the request carries a credential: the target's auth, an API key, a `${secret:…}`
    /// value or a sensitive header, a `prepare` program's or SigV4's headers, or an
    /// `Authorization`, `Proxy-Authorization` or `Cookie` header.
    static func hasCredentials(_ request: URLRequest, _ target: DynamicTarget) -> Bool {
        if target.credential != nil || target.apiKeyQuery != nil || target.digestCredential != nil
            || target.preparation != nil || !target.secretValues.isEmpty
        {
            return true
        }
        let sensitive = SensitiveHeaders.defaultNames.union(target.sensitiveHeaderNames).union(
            request.sensitiveHeaderNames
        ).union(["authorization", "proxy-authorization", "cookie"])
        return request.headers.contains { sensitive.contains($0.name.canonicalName) }
    }

    static func validated(_ response: Response, _ validationType: ValidationType) -> Result<Response, MoyaError> {
        validationType.accepts(statusCode: response.statusCode) ? .success(response) : .failure(.statusCode(response))
    }
}

/// The URLs being revalidated by the cache (a set, as `check` sends several at once).
final class RevalidatingRequests: Sendable {
    private let urls = Mutex<[String: Int]>([:])

    func insert(_ url: String) {
        urls.withLock { $0[url, default: 0] += 1 }
    }

    /// Whether `url` was being revalidated (and is no longer).
    func remove(_ url: String) -> Bool {
        urls.withLock { urls in
            guard let count = urls[url] else { return false }
            urls[url] = count > 1 ? count - 1 : nil
            return true
        }
    }
}
