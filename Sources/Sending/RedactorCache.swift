import MoyaKit
import Synchronization
import TargetSpec

/// The redactors of a run that reports on many targets (`check`), made once for each set of
/// secrets rather than once a target.
///
/// Building a redactor finds every form of every secret (as written, percent-encoded, escaped
/// in JSON...), which made it a large part of an authenticated sweep's work when each check built
/// its own, although an API's cases share their secrets (`make bench`'s authenticated sweep). Targets
/// without secrets of their own share one redactor (`Redaction.sharedRedactor`); the others
/// share one for each distinct secret values, credential and sensitive header names.
package final class RedactorCache: Sendable {
    private struct Key: Hashable {
        let secretValues: [String]
        let credential: String?
        let sensitiveHeaderNames: Set<String>
    }

    /// Distinct sets of secrets kept at most; beyond, redactors are made and not kept (a chain
    /// whose every step captures a new secret, say).
    package static let capacity = 256

    private let redaction: Redaction
    private let shared: SecretRedactor
    private let kept = Mutex<[Key: SecretRedactor]>([:])

    /// A cache of the redactors `redaction` makes.
    package init(_ redaction: Redaction) {
        self.redaction = redaction
        shared = redaction.sharedRedactor
    }

    /// The redactor `redaction.redactor(for:)` makes for `target`.
    package func redactor(for target: DynamicTarget) -> SecretRedactor {
        guard target.hasOwnSecrets else { return shared }
        let key = Key(
            secretValues: target.secretValues, credential: target.credential,
            sensitiveHeaderNames: target.sensitiveHeaderNames)
        if let redactor = kept.withLock({ $0[key] }) { return redactor }
        let redactor = redaction.redactor(for: target)
        kept.withLock { kept in
            if kept.count < Self.capacity { kept[key] = redactor }
        }
        return redactor
    }
}
