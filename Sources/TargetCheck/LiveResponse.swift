import TargetSpec

/// A live answer kept for `check --live --record`: the response as a sample to record, whether
/// it passed the case's validation, and what must never be written of it.
package struct LiveResponse: Sendable {
    package var sample: RecordedSample
    /// Whether the status passed the case's validation (a drift in the body's shape still passed).
    package var passedValidation: Bool
    /// The secrets and sensitive headers of the request sent (its redactor's).
    package var secretValues: [String]
    package var sensitiveHeaderNames: Set<String>
}
