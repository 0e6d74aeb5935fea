/// One place where a live JSON body does not have the shape its sample declares.
package struct ShapeDrift: Sendable, Hashable, CustomStringConvertible {
    /// How the live value differs from the sample.
    package enum Problem: Sendable, Hashable {
        /// The sample has this key; the live object does not.
        case missing
        /// The live value has another JSON type than the sample's (`expected` and `found` are
        /// JSON type names: object, array, string, number, bool, null).
        case typeMismatch(expected: String, found: String)
        /// The live object has a key the sample does not declare (reported only when strict).
        case unexpectedKey(found: String)
    }

    /// Where, as a JSONPath such as `$.items[0].id` or `$["content-type"]`.
    package var path: String
    /// What differs.
    package var problem: Problem

    /// Creates a drift.
    package init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The problem's name in reports: `missing`, `type` or `unexpected`.
    package var kind: String {
        switch problem {
        case .missing: "missing"
        case .typeMismatch: "type"
        case .unexpectedKey: "unexpected"
        }
    }

    /// The JSON type the sample declares there, if any.
    package var expectedType: String? {
        if case .typeMismatch(let expected, _) = problem { return expected }
        return nil
    }

    /// The JSON type found in the live body there, if any.
    package var foundType: String? {
        switch problem {
        case .missing: nil
        case .typeMismatch(_, let found), .unexpectedKey(let found): found
        }
    }

    /// `$.owner: missing`, `$.items[0].id: expected number, found string`, `$.extra: unexpected key (string)`.
    package var description: String {
        switch problem {
        case .missing: "\(path): missing"
        case .typeMismatch(let expected, let found): "\(path): expected \(expected), found \(found)"
        case .unexpectedKey(let found): "\(path): unexpected key (\(found))"
        }
    }
}
