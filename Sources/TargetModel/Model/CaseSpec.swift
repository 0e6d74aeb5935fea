import PositionedYAML

/// One case of an API: the request it builds and its samples.
public struct CaseSpec: Sendable, Hashable {
    // One copy-on-write box: an API holds its cases in one array, whose elements are then 8 bytes
    // instead of the whole struct, so a large file's array is small while it grows. Guarded by
    // the budget "validate (10,000 cases)" (bench/budgets.json) and `make bench`'s memory figures.
    private var fields: CopyOnWriteBox<Fields>

    /// The fields, behind one reference.
    private struct Fields: Sendable, Hashable {
        var name: String
        var mark: Mark
        var description: String?
        var values: [ValueSpec]
        var path: Template
        var method: String
        var headers: [HeaderSpec]
        var auth: CaseAuthMode
        var task: TaskSpec
        var validation: ValidationSpec?
        var timeout: Double?
        var samples: [NamedSample]
        var examples: [[String: ArgumentValue]]
        var exampleSteps: [ExampleStep]
        var pagination: CasePagination
        var captures: [Capture]
    }

    /// The case's name (`call API CASE`).
    public var name: String {
        get { fields.value.name }
        set { fields.value.name = newValue }
    }
    /// Where the case is declared (its key).
    public var mark: Mark {
        get { fields.value.mark }
        set { fields.value.mark = newValue }
    }
    /// Shown by `list` and `--help`.
    public var description: String? {
        get { fields.value.description }
        set { fields.value.description = newValue }
    }
    /// The associated values, in declared order.
    public var values: [ValueSpec] {
        get { fields.value.values }
        set { fields.value.values = newValue }
    }
    /// The path, starting with `/`; placeholders are escaped as one path segment when rendered.
    public var path: Template {
        get { fields.value.path }
        set { fields.value.path = newValue }
    }
    /// The HTTP method, upper case (`GET` unless the file says otherwise).
    public var method: String {
        get { fields.value.method }
        set { fields.value.method = newValue }
    }
    /// Headers merged over the API's (and the environment's); the case wins.
    public var headers: [HeaderSpec] {
        get { fields.value.headers }
        set { fields.value.headers = newValue }
    }
    /// Whether the API's auth applies.
    public var auth: CaseAuthMode {
        get { fields.value.auth }
        set { fields.value.auth = newValue }
    }
    /// What is sent.
    public var task: TaskSpec {
        get { fields.value.task }
        set { fields.value.task = newValue }
    }
    /// Overrides the API's validation when given.
    public var validation: ValidationSpec? {
        get { fields.value.validation }
        set { fields.value.validation = newValue }
    }
    /// Overrides the API's total timeout (seconds) when given.
    public var timeout: Double? {
        get { fields.value.timeout }
        set { fields.value.timeout = newValue }
    }
    /// The samples, the default one first; empty when the file gives none.
    public var samples: [NamedSample] {
        get { fields.value.samples }
        set { fields.value.samples = newValue }
    }
    /// The argument sets `check` uses, bound and typed (defaults filled in); chained examples,
    /// bound only once their captures are known, are not among them (see `exampleSteps`).
    public var examples: [[String: ArgumentValue]] {
        get { fields.value.examples }
        set { fields.value.examples = newValue }
    }
    /// Every example in file order, chained ones included.
    public var exampleSteps: [ExampleStep] {
        get { fields.value.exampleSteps }
        set { fields.value.exampleSteps = newValue }
    }
    /// How the case pages (`pagination:`).
    public var pagination: CasePagination {
        get { fields.value.pagination }
        set { fields.value.pagination = newValue }
    }
    /// What the case takes from its response (`captures:`), in file order.
    public var captures: [Capture] {
        get { fields.value.captures }
        set { fields.value.captures = newValue }
    }

    public static func == (lhs: CaseSpec, rhs: CaseSpec) -> Bool {
        lhs.fields.isIdentical(to: rhs.fields) || lhs.fields.value == rhs.fields.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.value)
    }

    /// Creates a case.
    public init(
        name: String, mark: Mark, description: String? = nil, values: [ValueSpec] = [], path: Template,
        method: String = "GET", headers: [HeaderSpec] = [], auth: CaseAuthMode = .inherited, task: TaskSpec = .plain,
        validation: ValidationSpec? = nil, timeout: Double? = nil, samples: [NamedSample] = [],
        examples: [[String: ArgumentValue]] = [], exampleSteps: [ExampleStep]? = nil, pagination: CasePagination = .inherited,
        captures: [Capture] = []
    ) {
        fields = CopyOnWriteBox(Fields(
            name: name, mark: mark, description: description, values: values, path: path, method: method, headers: headers,
            auth: auth, task: task, validation: validation, timeout: timeout, samples: samples, examples: examples,
            exampleSteps: exampleSteps ?? examples.enumerated().map { ExampleStep(number: $0.offset + 1, kind: .arguments($0.element)) },
            pagination: pagination, captures: captures))
    }

    /// The sample `--stub` uses without `--sample`.
    public var defaultSample: NamedSample? { samples.first }

    /// The sample named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownSample` with the valid names.
    public func sample(named name: String) throws(SpecLookupError) -> NamedSample {
        if let sample = samples.first(where: { $0.name == name }) { return sample }
        let names = samples.map(\.name)
        throw .unknownSample(name, caseName: self.name, suggestion: Suggestion.closest(to: name, in: names), available: names)
    }

    /// A binder for this case's values (for the command line, relative `file` paths from the current folder).
    public func argumentBinder(fileBaseDirectory: String? = nil) -> ArgumentBinder {
        ArgumentBinder(caseName: name, values: values, fileBaseDirectory: fileBaseDirectory)
    }
}
