import Assertions
import MoyaKit
import TargetModel

/// `--expect` of `call` and `request`: the compact expectations read before anything is sent
/// (a bad one is a usage error, 64), then tested against the response, 8 when one fails.
struct ExpectedResponse {
    var expectation: Expectation

    /// The expectation of `items`, or `nil` when there are none.
    static func reading(_ items: [String]) throws -> ExpectedResponse? {
        guard !items.isEmpty else { return nil }
        do {
            return ExpectedResponse(expectation: try CompactExpectation.parse(items))
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    /// Whether the body must be kept to be tested.
    var needsBody: Bool { !expectation.body.isEmpty }

    /// Tests `response`; throws exit 8 naming each failed assertion (secrets redacted).
    func check(_ response: Response, milliseconds: Double?, label: String, redactor: SecretRedactor) throws {
        let headers = response.response?.headers.map { ($0.name.rawName, $0.value) } ?? []
        let facts = ResponseFacts(
            status: response.statusCode, headers: headers,
            body: needsBody ? ResponseFacts.body(parsing: response.data) : .other(""), milliseconds: milliseconds)
        let failures = expectation.failures(for: facts)
        guard !failures.isEmpty else { return }
        let lines = failures.map { "  " + redactor.redact($0.description) }
        throw CommandFailure(
            .checkFailed,
            "\(label): \(failures.count) expectation\(failures.count == 1 ? "" : "s") failed\n"
                + lines.joined(separator: "\n"))
    }
}
