import Assertions
import PositionedYAML

/// One case of an API: the request it builds and its samples.
@dynamicMemberLookup
public struct CaseSpec: Sendable, Hashable {
    // One copy-on-write box: an API holds its cases in one array, whose elements are then 8 bytes
    // instead of the whole struct, so a large file's array is small while it grows. Guarded by
    // the budget "validate (10,000 cases)" (bench/budgets.json) and `make bench`'s memory figures.
    @usableFromInline var fields: CopyOnWriteBox<Fields>

    /// The stored values of a case; read and written as the case's own (`spec.name`).
    public struct Fields: Sendable, Hashable {
        /// The case's name (`call API CASE`).
        public var name: String
        /// Where the case is declared (its key).
        public var mark: Mark
        /// Shown by `list` and `--help`.
        public var description: String? = nil
        /// The associated values, in declared order.
        public var values: [ValueSpec] = []
        /// The path, starting with `/`; placeholders are escaped as one path segment when rendered.
        public var path: Template
        /// The case's own base URL (may hold `${VAR}`), as Moya's `TargetType.baseURL` is per case;
        /// `nil` sends to the API's (or the selected environment's).
        public var baseURL: Template? = nil
        /// The HTTP method, upper case (`GET` unless the file says otherwise).
        public var method: String = "GET"
        /// Headers merged over the API's (and the environment's); the case wins.
        public var headers: [HeaderSpec] = []
        /// Whether the API's auth applies.
        public var auth: CaseAuthMode = .inherited
        /// What is sent.
        public var task: TaskSpec = .plain
        /// Overrides the API's validation when given.
        public var validation: ValidationSpec? = nil
        /// Overrides the API's total timeout (seconds) when given.
        public var timeout: Double? = nil
        /// `cache: true|false`: whether the HTTP cache answers and keeps this case's responses,
        /// over the API's `cache`; `nil` when the case does not say.
        public var usesCache: Bool? = nil
        /// Overrides the API's idle timeout (seconds) when given.
        public var idleTimeout: Double? = nil
        /// Overrides the API's redirect policy when given.
        public var redirects: RedirectPolicy? = nil
        /// The samples, the default one first; empty when the file gives none.
        public var samples: [NamedSample] = []
        /// The argument sets `check` uses, bound and typed (defaults filled in); chained examples,
        /// bound only once their captures are known, are not among them (see `exampleSteps`).
        public var examples: [[String: ArgumentValue]] = []
        /// Every example in file order, chained ones included.
        public var exampleSteps: [ExampleStep] = []
        /// How the case pages (`pagination:`).
        public var pagination: CasePagination = .inherited
        /// What the case takes from its response (`captures:`), in file order.
        public var captures: [Capture] = []
        /// What a response must be (`expect:`), tested by `check` against samples and live answers.
        package var expectation: Expectation? = nil
    }

    /// Creates a case.
    @inlinable
    public init(_ fields: Fields) {
        self.fields = CopyOnWriteBox(fields)
    }

    /// A field, read in place and written in place once the box is not shared.
    @inlinable
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
        get { fields.value[keyPath: keyPath] }
        _modify { yield &fields.value[keyPath: keyPath] }
    }

    public static func == (lhs: CaseSpec, rhs: CaseSpec) -> Bool {
        lhs.fields.isIdentical(to: rhs.fields) || lhs.fields.value == rhs.fields.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.value)
    }

    /// How many assertions the case and its examples make (`list` shows it).
    package var expectationCount: Int {
        (self.expectation?.count ?? 0) + self.exampleSteps.reduce(0) { $0 + ($1.expectation?.count ?? 0) }
    }

    /// The sample `--stub` uses without `--sample`.
    public var defaultSample: NamedSample? { self.samples.first }

    /// The sample named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownSample` with the valid names.
    public func sample(named name: String) throws(SpecLookupError) -> NamedSample {
        if let sample = self.samples.first(where: { $0.name == name }) { return sample }
        let names = self.samples.map(\.name)
        throw .unknownSample(
            name, caseName: self.name, suggestion: Suggestion.closest(to: name, in: names), available: names)
    }

    /// A binder for this case's values (for the command line, relative `file` paths from the current folder).
    public func argumentBinder(fileBaseDirectory: String? = nil) -> ArgumentBinder {
        ArgumentBinder(caseName: self.name, values: self.values, fileBaseDirectory: fileBaseDirectory)
    }
}

extension CaseSpec.Fields {
    /// A case with every other field at its default (an ad-hoc request's, made outside this module).
    package init(name: String, mark: Mark, path: Template) {
        self.init(name: name, mark: mark, path: path, method: "GET")
    }
}
