import Paging

/// One case of an API: the request it builds and its samples.
public struct CaseSpec: Sendable, Hashable {
    /// The case's name (`call API CASE`).
    public var name: String
    /// Where the case is declared (its key).
    public var mark: Mark
    /// Shown by `list` and `--help`.
    public var description: String?
    /// The associated values, in declared order.
    public var values: [ValueSpec]
    /// The path, starting with `/`; placeholders are escaped as one path segment when rendered.
    public var path: Template
    /// The HTTP method, upper case (`GET` unless the file says otherwise).
    public var method: String
    /// Headers merged over the API's (and the environment's); the case wins.
    public var headers: [HeaderSpec]
    /// Whether the API's auth applies.
    public var auth: CaseAuthMode
    /// What is sent.
    public var task: TaskSpec
    /// Overrides the API's validation when given.
    public var validation: ValidationSpec?
    /// Overrides the API's total timeout (seconds) when given.
    public var timeout: Double?
    /// The samples, the default one first; empty when the file gives none.
    public var samples: [NamedSample]
    /// The argument sets `check` uses, bound and typed (defaults filled in); chained examples,
    /// bound only once their captures are known, are not among them (see `exampleSteps`).
    public var examples: [[String: ArgumentValue]]
    /// Every example in file order, chained ones included.
    public var exampleSteps: [ExampleStep]
    /// How the case pages (`pagination:`).
    public var pagination: CasePagination
    /// What the case takes from its response (`captures:`), in file order.
    public var captures: [Capture]

    /// Creates a case.
    public init(
        name: String, mark: Mark, description: String? = nil, values: [ValueSpec] = [], path: Template,
        method: String = "GET", headers: [HeaderSpec] = [], auth: CaseAuthMode = .inherited, task: TaskSpec = .plain,
        validation: ValidationSpec? = nil, timeout: Double? = nil, samples: [NamedSample] = [],
        examples: [[String: ArgumentValue]] = [], exampleSteps: [ExampleStep]? = nil, pagination: CasePagination = .inherited,
        captures: [Capture] = []
    ) {
        self.name = name
        self.mark = mark
        self.description = description
        self.values = values
        self.path = path
        self.method = method
        self.headers = headers
        self.auth = auth
        self.task = task
        self.validation = validation
        self.timeout = timeout
        self.samples = samples
        self.examples = examples
        self.exampleSteps = exampleSteps
            ?? examples.enumerated().map { ExampleStep(number: $0.offset + 1, kind: .arguments($0.element)) }
        self.pagination = pagination
        self.captures = captures
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
