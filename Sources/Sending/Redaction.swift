import MoyaKit
import TargetSpec

/// What is hidden in everything printed about a request: the target's `${secret:...}` values and
/// credential, the headers it marks sensitive, and the run's own secrets (the passwords in
/// `--proxy` and `--base-url` URLs); nothing with `--show-secrets`.
package struct Redaction: Sendable {
    /// Secrets of the run rather than of a target.
    package var runSecrets: [String]
    /// `--show-secrets`.
    package var showsSecrets: Bool

    /// Creates a redaction.
    package init(runSecrets: [String] = [], showsSecrets: Bool = false) {
        self.runSecrets = runSecrets
        self.showsSecrets = showsSecrets
    }

    /// The redactor for what is printed about `target`.
    package func redactor(for target: DynamicTarget) -> SecretRedactor {
        var secrets = target.secretValues
        if let credential = target.credential, !credential.isEmpty { secrets.append(credential) }
        secrets += runSecrets
        return SecretRedactor(
            sensitiveHeaderNames: SecretRedactor.defaultSensitiveHeaderNames.union(target.sensitiveHeaderNames),
            secretValues: secrets, showsSecrets: showsSecrets)
    }

    /// The redactor `redactor(for:)` makes for any target without secrets of its own
    /// (`DynamicTarget.hasOwnSecrets`).
    package var sharedRedactor: SecretRedactor {
        SecretRedactor(
            sensitiveHeaderNames: SecretRedactor.defaultSensitiveHeaderNames, secretValues: runSecrets,
            showsSecrets: showsSecrets)
    }
}

extension DynamicTarget {
    /// Whether the target has secrets a redactor must know of: `${secret:...}` values, a
    /// credential, or headers it marks sensitive.
    package var hasOwnSecrets: Bool {
        !self.secretValues.isEmpty || !(self.credential ?? "").isEmpty || !self.sensitiveHeaderNames.isEmpty
    }
}
