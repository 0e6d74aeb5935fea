import MoyaKit
import OrderedJSON
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a capture found nothing usable.
package enum CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response has nothing there.
    case missing(name: String, source: String)
    /// The body is not JSON, so no body capture can be read.
    case bodyNotJSON(name: String, problem: String)
    /// The value is an array or an object: a capture is one value.
    case notScalar(name: String, source: String, found: String)

    package var description: String {
        switch self {
        case .missing(let name, let source): "capture '\(name)': the response has nothing at \(source)"
        case .bodyNotJSON(let name, let problem): "capture '\(name)': the body is not JSON (\(problem))"
        case .notScalar(let name, let source, let found):
            "capture '\(name)': \(source) is \(found); a capture is one string, number or bool"
        }
    }
}

extension Capture {
    /// Reads `captures` from a response: the values found, and every problem (none when all were found).
    ///
    /// A string is taken as it is, a number as written, a bool as `true`/`false`, `null` as
    /// missing; arrays and objects are refused.
    package static func values(of captures: [Capture], headers: [(name: String, value: String)], body: Data)
        -> (values: CapturedValues, problems: [CaptureError])
    {
        var document: Result<JSONValue, JSONParseError>?
        var found = CapturedValues()
        var problems: [CaptureError] = []
        for capture in captures {
            switch capture.source {
            case .header(let name):
                guard let value = headers.first(where: { $0.name.lowercased() == name.lowercased() })?.value else {
                    problems.append(.missing(name: capture.name, source: capture.sourceDescription))
                    continue
                }
                found.values.append((capture.name, value))
                if capture.isSecret { found.secretValues.append(value) }
            case .body(let path):
                if document == nil {
                    do {
                        document = .success(try JSONValue(parsing: body))
                    } catch {
                        document = .failure(error)
                    }
                }
                guard case .success(let json)? = document else {
                    if case .failure(let error)? = document {
                        problems.append(.bodyNotJSON(name: capture.name, problem: error.description))
                    }
                    continue
                }
                let text: String
                switch path.value(in: json) {
                case nil, .null?:
                    problems.append(.missing(name: capture.name, source: path.source))
                    continue
                case .string(let value)?: text = value
                case .int(let value)?: text = String(value)
                case .number(let value)?: text = value.text
                case .bool(let value)?: text = value ? "true" : "false"
                case let other?:
                    problems.append(
                        .notScalar(name: capture.name, source: path.source, found: PagingError.kind(of: other)))
                    continue
                }
                found.values.append((capture.name, text))
                if capture.isSecret { found.secretValues.append(text) }
            }
        }
        return (found, problems)
    }
}
