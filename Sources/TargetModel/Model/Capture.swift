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
        lhs.values.elementsEqual(rhs.values) { $0.name == $1.name && $0.value == $1.value }
            && lhs.secretValues == rhs.secretValues
    }

    public func hash(into hasher: inout Hasher) {
        for value in values {
            hasher.combine(value.name)
            hasher.combine(value.value)
        }
    }
}
