import MoyaKit
import TargetModel

/// `--retry N` and `--retry-all` are MoyaKit's `RetryPolicy`, the one rule of which failures are
/// sent again and after how long (statuses, transport failures, backoff, `Retry-After`), for every
/// request (`call`, `check`, `call --all`'s pages, `serve`'s proxy). Here are only the CLI's
/// spellings of it.
extension RetryPolicy {
    /// The methods `--retry` repeats without `--retry-all`: the idempotent ones, as
    /// `MethodSemantics` (which every rule about methods asks) says; any other method is neither.
    package static let idempotentMethods: Set<Method> = Set(
        (MethodSemantics.standard + ["QUERY"]).filter(MethodSemantics.isIdempotent).compactMap {
            Method(rawValue: $0)
        })

    /// Never retries (a stubbed request, or no `--retry`): no retry at all, so no method, status or
    /// failure is listed as retryable (building `idempotentMethods` was 37,000 instructions of
    /// every call, issue 42).
    package static let none = RetryPolicy(
        retryLimit: 0, retryableHTTPMethods: [], retryableHTTPStatusCodes: [], retryableURLErrorCodes: [])

    /// `--retry maximumRetries`, `--retry-all`, and how often a rate-limited answer is retried even
    /// beyond them (`rateLimitRetries`: paging waits as the server asks).
    package init(maximumRetries: Int, retriesAllMethods: Bool = false, rateLimitRetries: Int = 0) {
        self.init(
            retryLimit: maximumRetries, retryableHTTPMethods: Self.idempotentMethods,
            retriesAllMethods: retriesAllMethods, rateLimitRetries: rateLimitRetries)
    }
}
