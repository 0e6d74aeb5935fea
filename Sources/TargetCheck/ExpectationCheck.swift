import Assertions
import MoyaKit
import OrderedJSON
import TargetModel

/// A check's `expect:`: the case's with its example's over it, tested against the default sample
/// (offline) or the live answer, placeholders filled from the item's values and captures.
enum ExpectationCheck {
    /// The expectation `item` is held to, if any.
    static func expectation(for item: CheckItem) -> Expectation? {
        let example = item.exampleNumber.flatMap { number in
            item.spec.exampleSteps.first { $0.number == number }?.expectation
        }
        switch (item.spec.expectation, example) {
        case (let own?, let example?): return own.overridden(by: example)
        case (let own?, nil): return own
        case (nil, let example?): return example
        case (nil, nil): return nil
        }
    }

    /// The placeholders' values: the item's arguments (typed) and what the steps before it captured.
    static func values(for item: CheckItem, captured: CapturedValues?) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for (name, value) in item.arguments { values[name] = value.json }
        for capture in (captured ?? item.inheritedCaptures)?.values ?? [] {
            values[capture.name] = .string(capture.value)
        }
        return values
    }

    /// The response's header fields, in order.
    static func headers(of response: Response) -> [(name: String, value: String)] {
        ChainStep.fields(of: response)
    }

    /// The start of a failed check's response body for the HTML report: 2 KiB, secrets redacted.
    static func excerpt(of body: some Collection<UInt8>, redactor: SecretRedactor) -> String? {
        guard !body.isEmpty else { return nil }
        let limit = 2048
        var text = String(decoding: body.prefix(limit), as: UTF8.self)
        if body.count > limit { text += "\n… (\(body.count) bytes)" }
        return redactor.redact(text)
    }

    /// `result` failed with `failures` (redacted), unless there are none; a result that already
    /// failed keeps its kind and gains the assertions.
    static func applying(
        _ failures: [AssertionFailure], to result: CheckResult, redactor: SecretRedactor
    ) -> CheckResult {
        guard !failures.isEmpty else { return result }
        let redacted = failures.map { failure in
            AssertionFailure(
                subject: redactor.redact(failure.subject), expected: redactor.redact(failure.expected),
                found: redactor.redact(failure.found))
        }
        var checked = result
        checked.assertions = redacted
        if checked.outcome == .passed {
            checked.outcome = .failed
            checked.failureKind = .assertion
            checked.reasons =
                [
                    "\(redacted.count) expectation\(redacted.count == 1 ? "" : "s") failed"
                ] + redacted.map(\.description)
            checked.captured = nil
        } else {
            checked.reasons += redacted.map(\.description)
        }
        return checked
    }
}
