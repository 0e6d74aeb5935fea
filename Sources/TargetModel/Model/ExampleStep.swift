import Assertions
import PositionedYAML

/// One entry of a case's `examples:`: argument sets `check` uses, either given outright or as a
/// step of a chain that runs after another case's example and takes values from its captures.
public struct ExampleStep: Sendable, Hashable {
    /// The example's number in the case's list, from 1 (`API.CASE#N`).
    public var number: Int
    /// What the example gives.
    public var kind: Kind
    /// The example's own expectations (`$expect:`), over the case's.
    package var expectation: Expectation? = nil

    /// What an example gives.
    public enum Kind: Sendable, Hashable {
        /// Arguments, bound and typed (defaults filled in).
        case arguments([String: ArgumentValue])
        /// A chain step: `after:` and `with:`.
        case chained(ChainedExample)
    }

    /// Creates an example step.
    public init(number: Int, kind: Kind) {
        self.number = number
        self.kind = kind
    }
}

/// `- {after: createItem, with: {id: "{id}"}}`: an example that runs after another example of the
/// same API and takes its values from the captures of the steps before it.
public struct ChainedExample: Sendable, Hashable {
    /// The step this one runs after.
    public var after: ExampleReference
    /// The values, by name, as text: `{NAME}` in them is a capture of an earlier step of the
    /// chain; they are bound (and typed) once the captures are known.
    public var values: [(name: String, text: String)]
    /// Where the example is written.
    public var mark: Mark

    /// Creates a chained example.
    public init(after: ExampleReference, values: [(name: String, text: String)], mark: Mark) {
        self.after = after
        self.values = values
        self.mark = mark
    }

    /// The `{NAME}` capture names in `text`, in order.
    public static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest[rest.index(after: open)...]
            guard let close = afterOpen.firstIndex(of: "}") else { break }
            let name = afterOpen[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
                !(name.first?.isNumber ?? true)
            {
                names.append(String(name))
                rest = afterOpen[afterOpen.index(after: close)...]
            } else {
                rest = afterOpen
            }
        }
        return names
    }

    /// `text` with each `{NAME}` replaced by the capture `NAME`; a name without a capture stays.
    public static func substituting(_ captured: CapturedValues, in text: String) -> String {
        var output = text
        for name in Set(placeholders(in: text)) {
            if let value = captured[name] { output = output.replacing("{\(name)}", with: value) }
        }
        return output
    }

    public static func == (lhs: ChainedExample, rhs: ChainedExample) -> Bool {
        lhs.after == rhs.after && lhs.mark == rhs.mark && lhs.values.elementsEqual(rhs.values) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(after)
        hasher.combine(mark)
    }
}

/// `createItem` or `createItem#2`: an example of a case of the same API.
public struct ExampleReference: Sendable, Hashable, CustomStringConvertible {
    /// The case.
    public var caseName: String
    /// The example's number, from 1; `nil`: the first example, or the case's defaults when it has no examples.
    public var number: Int?

    /// Creates a reference.
    public init(caseName: String, number: Int?) {
        self.caseName = caseName
        self.number = number
    }

    /// Reads `case` or `case#N`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { return nil }
        caseName = String(name)
        if parts.count == 2 {
            guard let number = Int(parts[1]), number >= 1, parts[1].allSatisfy(\.isNumber) else { return nil }
            self.number = number
        } else {
            number = nil
        }
    }

    public var description: String { number.map { "\(caseName)#\($0)" } ?? caseName }
}

/// Whether a case pages: as the API says, not at all (`pagination: none`), or its own way.
public enum CasePagination: Sendable, Hashable {
    /// No `pagination:` on the case: the API's, if any.
    case inherited
    /// `pagination: none`.
    case none
    /// The case's own. Boxed: few cases have one, and inline it made every case 56 bytes larger.
    indirect case paged(Pagination)
}
