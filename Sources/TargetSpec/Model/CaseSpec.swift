import Paging

/// One case of an API: the request it builds and its samples.
public struct CaseSpec: Sendable, Hashable {
    // The fields live in one copy-on-write box: an API holds its cases in one array, and a
    // 328-byte element made a 10,000-case array 5.4 MB with 2 MB of growth slack, and 8 MB while
    // it grew (issue 16); a box costs the array 8 bytes per case and is allocated to size.
    private var storage: Storage

    private final class Storage: @unchecked Sendable {
        // Written only while uniquely referenced (see `writable`), so sharing it is safe.
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

        init(
            name: String, mark: Mark, description: String?, values: [ValueSpec], path: Template, method: String,
            headers: [HeaderSpec], auth: CaseAuthMode, task: TaskSpec, validation: ValidationSpec?, timeout: Double?,
            samples: [NamedSample], examples: [[String: ArgumentValue]], exampleSteps: [ExampleStep], pagination: CasePagination,
            captures: [Capture]
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
            self.pagination = pagination
            self.captures = captures
        }

        func copy() -> Storage {
            Storage(
                name: name, mark: mark, description: description, values: values, path: path, method: method, headers: headers,
                auth: auth, task: task, validation: validation, timeout: timeout, samples: samples, examples: examples,
                exampleSteps: exampleSteps, pagination: pagination, captures: captures)
        }
    }

    /// The box, copied first when another value shares it.
    private var writable: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// The case's name (`call API CASE`).
    public var name: String {
        get { storage.name }
        set { writable.name = newValue }
    }
    /// Where the case is declared (its key).
    public var mark: Mark {
        get { storage.mark }
        set { writable.mark = newValue }
    }
    /// Shown by `list` and `--help`.
    public var description: String? {
        get { storage.description }
        set { writable.description = newValue }
    }
    /// The associated values, in declared order.
    public var values: [ValueSpec] {
        get { storage.values }
        set { writable.values = newValue }
    }
    /// The path, starting with `/`; placeholders are escaped as one path segment when rendered.
    public var path: Template {
        get { storage.path }
        set { writable.path = newValue }
    }
    /// The HTTP method, upper case (`GET` unless the file says otherwise).
    public var method: String {
        get { storage.method }
        set { writable.method = newValue }
    }
    /// Headers merged over the API's (and the environment's); the case wins.
    public var headers: [HeaderSpec] {
        get { storage.headers }
        set { writable.headers = newValue }
    }
    /// Whether the API's auth applies.
    public var auth: CaseAuthMode {
        get { storage.auth }
        set { writable.auth = newValue }
    }
    /// What is sent.
    public var task: TaskSpec {
        get { storage.task }
        set { writable.task = newValue }
    }
    /// Overrides the API's validation when given.
    public var validation: ValidationSpec? {
        get { storage.validation }
        set { writable.validation = newValue }
    }
    /// Overrides the API's total timeout (seconds) when given.
    public var timeout: Double? {
        get { storage.timeout }
        set { writable.timeout = newValue }
    }
    /// The samples, the default one first; empty when the file gives none.
    public var samples: [NamedSample] {
        get { storage.samples }
        set { writable.samples = newValue }
    }
    /// The argument sets `check` uses, bound and typed (defaults filled in); chained examples,
    /// bound only once their captures are known, are not among them (see `exampleSteps`).
    public var examples: [[String: ArgumentValue]] {
        get { storage.examples }
        set { writable.examples = newValue }
    }
    /// Every example in file order, chained ones included.
    public var exampleSteps: [ExampleStep] {
        get { storage.exampleSteps }
        set { writable.exampleSteps = newValue }
    }
    /// How the case pages (`pagination:`).
    public var pagination: CasePagination {
        get { storage.pagination }
        set { writable.pagination = newValue }
    }
    /// What the case takes from its response (`captures:`), in file order.
    public var captures: [Capture] {
        get { storage.captures }
        set { writable.captures = newValue }
    }

    public static func == (lhs: CaseSpec, rhs: CaseSpec) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (l, r) = (lhs.storage, rhs.storage)
        return l.name == r.name
            && l.mark == r.mark
            && l.description == r.description
            && l.values == r.values
            && l.path == r.path
            && l.method == r.method
            && l.headers == r.headers
            && l.auth == r.auth
            && l.task == r.task
            && l.validation == r.validation
            && l.timeout == r.timeout
            && l.samples == r.samples
            && l.examples == r.examples
            && l.exampleSteps == r.exampleSteps
            && l.pagination == r.pagination
            && l.captures == r.captures
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.name)
        hasher.combine(storage.mark)
        hasher.combine(storage.description)
        hasher.combine(storage.values)
        hasher.combine(storage.path)
        hasher.combine(storage.method)
        hasher.combine(storage.headers)
        hasher.combine(storage.auth)
        hasher.combine(storage.task)
        hasher.combine(storage.validation)
        hasher.combine(storage.timeout)
        hasher.combine(storage.samples)
        hasher.combine(storage.examples)
        hasher.combine(storage.exampleSteps)
        hasher.combine(storage.pagination)
        hasher.combine(storage.captures)
    }

    /// Creates a case.
    public init(
        name: String, mark: Mark, description: String? = nil, values: [ValueSpec] = [], path: Template,
        method: String = "GET", headers: [HeaderSpec] = [], auth: CaseAuthMode = .inherited, task: TaskSpec = .plain,
        validation: ValidationSpec? = nil, timeout: Double? = nil, samples: [NamedSample] = [],
        examples: [[String: ArgumentValue]] = [], exampleSteps: [ExampleStep]? = nil, pagination: CasePagination = .inherited,
        captures: [Capture] = []
    ) {
        storage = Storage(
            name: name, mark: mark, description: description, values: values, path: path, method: method, headers: headers,
            auth: auth, task: task, validation: validation, timeout: timeout, samples: samples, examples: examples,
            exampleSteps: exampleSteps ?? examples.enumerated().map { ExampleStep(number: $0.offset + 1, kind: .arguments($0.element)) },
            pagination: pagination, captures: captures)
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
