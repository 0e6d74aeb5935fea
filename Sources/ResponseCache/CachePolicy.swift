import HTTPTypes
import MoyaKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 9111's rules, as a private cache that keeps no answer it could hand to the wrong person:
/// what may be stored (§3), how long it is fresh (§4.2.1), how old it is (§4.2.3), and what a
/// 304 changes (§4.3.4).
package enum CachePolicy {
    /// Statuses a response may be stored with without explicit freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Statuses stored at all: final answers with a body the cache can replay (not 206: the cache
    /// keeps whole bodies only).
    static let storable: Set<Int> = heuristicallyCacheable.union([302, 303, 307])

    /// Why a response is not stored, or `nil` when it may be.
    ///
    /// Not stored: a request other than GET, `no-store` on either side, `Vary: *`, a status the
    /// cache cannot replay, a response with neither freshness nor a validator (it could never
    /// answer), one that sets cookies, one marked `private` (the cache outlives the run and is
    /// keyed without the credential, so another user's or token's request could read it), and an
    /// answer to a request with credentials unless it says `public`.
    package static func refusal(
        method: String, requestFields: HTTPFields, hasCredentials: Bool, status: Int, responseFields: HTTPFields
    ) -> String? {
        guard method == "GET" else { return "only GET answers are kept" }
        let request = CacheControl(requestFields)
        let response = CacheControl(responseFields)
        if request.noStore || response.noStore { return "no-store" }
        guard storable.contains(status) else { return "status \(status) is not kept" }
        if response.isPrivate { return "the answer is private" }
        if hasCredentials && !response.isPublic {
            return "the request carries credentials and the answer is not public"
        }
        if responseFields[.setCookie] != nil { return "the answer sets cookies" }
        if varyNames(responseFields) == nil { return "Vary: *" }
        let hasFreshness = response.maxAge != nil || responseFields[.expires] != nil
        let hasValidator = responseFields[.eTag] != nil || responseFields[.lastModified] != nil
        let heuristic = heuristicallyCacheable.contains(status) && responseFields[.lastModified] != nil
        if !hasFreshness && !hasValidator && !heuristic { return "the answer has no freshness and no validator" }
        if !hasFreshness && !heuristicallyCacheable.contains(status) && !hasValidator {
            return "status \(status) is kept only with explicit freshness"
        }
        return nil
    }

    /// The lowercased field names `Vary` lists, or `nil` for `Vary: *` (never matched).
    package static func varyNames(_ fields: HTTPFields) -> [String]? {
        var names: [String] = []
        for field in fields where field.name == .vary {
            for part in field.value.split(separator: ",") {
                let name = part.trimmingSpaces.lowercased()
                if name == "*" { return nil }
                if !name.isEmpty && !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// How long `entry` is fresh for, in seconds (§4.2.1): `max-age`, else `Expires` − `Date`,
    /// else a tenth of the time since `Last-Modified` (at most a day) for a status cacheable by
    /// default; `s-maxage` is a shared cache's and is not read.
    package static func freshnessLifetime(of entry: CacheEntry) -> Double {
        let fields = entry.fields
        let control = CacheControl(fields)
        if let maxAge = control.maxAge { return Double(maxAge) }
        let date = fields[.date].flatMap(RetryAfter.httpDate)?.timeIntervalSince1970 ?? entry.responseTime
        if let expires = fields[.expires] {
            // An invalid Expires (such as 0) is a time in the past (§5.3).
            guard let time = RetryAfter.httpDate(expires)?.timeIntervalSince1970 else { return 0 }
            return max(0, time - date)
        }
        if heuristicallyCacheable.contains(entry.status),
            let modified = fields[.lastModified].flatMap(RetryAfter.httpDate)?.timeIntervalSince1970
        {
            return min(86_400, max(0, (date - modified) / 10))
        }
        return 0
    }

    /// How old `entry` is at `now` (§4.2.3).
    package static func currentAge(of entry: CacheEntry, now: Double) -> Double {
        let fields = entry.fields
        let ageValue = fields[.age].flatMap { Double(Substring($0).trimmingSpaces) } ?? 0
        let date = fields[.date].flatMap(RetryAfter.httpDate)?.timeIntervalSince1970 ?? entry.responseTime
        let apparentAge = max(0, entry.responseTime - date)
        let responseDelay = max(0, entry.responseTime - entry.requestTime)
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now - entry.responseTime)
    }

    /// Whether `entry` may answer a request with `requestFields` at `now` without asking the
    /// server: fresh, and neither side asks for revalidation (`no-cache`, a request's `max-age`).
    package static func isFresh(_ entry: CacheEntry, requestFields: HTTPFields, now: Double) -> Bool {
        let response = CacheControl(entry.fields)
        let request = CacheControl(requestFields)
        if response.noCache || request.noCache { return false }
        let age = currentAge(of: entry, now: now)
        if let limit = request.maxAge, age > Double(limit) { return false }
        return freshnessLifetime(of: entry) > age
    }

    /// Whether `requestFields` has what `entry` varied on, with the same values.
    package static func matchesVary(_ entry: CacheEntry, requestFields: HTTPFields) -> Bool {
        entry.varied.allSatisfy { varied in
            let value = HTTPField.Name(varied.name).flatMap { requestFields[$0] }
            return value == varied.value
        }
    }

    /// `entry` freshened by a 304's header fields (§4.3.4): each field the 304 sends replaces the
    /// stored ones of its name, but those that describe the stored body.
    package static func freshened(
        _ entry: CacheEntry, with notModified: HTTPFields, requestTime: Double, responseTime: Double
    )
        -> CacheEntry
    {
        let kept: Set<String> = [
            "content-length", "content-encoding", "transfer-encoding", "content-range", "content-type"
        ]
        var updated = entry
        let replaced = Set(notModified.map { $0.name.canonicalName }).subtracting(kept)
        updated.headers.removeAll { replaced.contains($0.name.lowercased()) }
        for field in notModified where replaced.contains(field.name.canonicalName) {
            updated.headers.append((field.name.rawName, field.value))
        }
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }
}
