import MoyaKit
import OrderedJSON

/// A value a case takes from its response (`captures: {id: "$.id", location: {header: Location}}`),
/// for the shell (`call --capture`) or the next step of a `check` chain.
public struct Capture: Sendable, Hashable {
    /// Where the value is.
    public enum Source: Sendable, Hashable {
        /// In the JSON body, at this path.
        case body(JSONPath)
        /// In the response header of this name (case-insensitive; the first field).
        case header(String)
    }

    /// The capture's name: an identifier.
    public var name: String
    /// Where the value is.
    public var source: Source
    /// Whether the value is a secret (`secret: true`): hidden wherever a later step shows it.
    public var isSecret: Bool

    /// Creates a capture.
    public init(name: String, source: Source, isSecret: Bool = false) {
        self.name = name
        self.source = source
        self.isSecret = isSecret
    }

    /// Where the capture looks, for messages: `$.id`, `header Location`.
    public var sourceDescription: String {
        switch source {
        case .body(let path): path.source
        case .header(let name): "header \(name)"
        }
    }
}

/// The captured values of one response.
public struct CapturedValues: Sendable, Hashable {
    /// Name and value, in the order the case declares its captures.
    public var values: [(name: String, value: String)]
    /// The values of the captures marked secret.
    public var secretValues: [String]

    /// Creates captured values.
    public init(values: [(name: String, value: String)] = [], secretValues: [String] = []) {
        self.values = values
        self.secretValues = secretValues
    }

    /// The value captured as `name`.
    public subscript(name: String) -> String? {
        values.last { $0.name == name }?.value
    }

    /// `self` with `other`'s values added (replacing those of the same name).
    public func merging(_ other: CapturedValues) -> CapturedValues {
        var merged = values.filter { value in !other.values.contains { $0.name == value.name } }
        merged += other.values
        return CapturedValues(values: merged, secretValues: secretValues + other.secretValues)
    }

    public static func == (lhs: CapturedValues, rhs: CapturedValues) -> Bool {
        lhs.values.elementsEqual(rhs.values) { $0.name == $1.name && $0.value == $1.value } && lhs.secretValues == rhs.secretValues
    }

    public func hash(into hasher: inout Hasher) {
        for value in values {
            hasher.combine(value.name)
            hasher.combine(value.value)
        }
    }
}

/// Why a capture found nothing usable.
public enum CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response has nothing there.
    case missing(name: String, source: String)
    /// The body is not JSON, so no body capture can be read.
    case bodyNotJSON(name: String, problem: String)
    /// The value is an array or an object: a capture is one value.
    case notScalar(name: String, source: String, found: String)

    public var description: String {
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
    public static func values(of captures: [Capture], headers: [(name: String, value: String)], body: Data)
        -> (values: CapturedValues, problems: [CaptureError]) {
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
                    if case .failure(let error)? = document { problems.append(.bodyNotJSON(name: capture.name, problem: error.description)) }
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
                    problems.append(.notScalar(name: capture.name, source: path.source, found: PagingError.kind(of: other)))
                    continue
                }
                found.values.append((capture.name, text))
                if capture.isSecret { found.secretValues.append(text) }
            }
        }
        return (found, problems)
    }
}
