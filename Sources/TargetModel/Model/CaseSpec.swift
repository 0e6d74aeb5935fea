import PositionedYAML

/// One case of an API: the request it builds and its samples.
@dynamicMemberLookup
package struct CaseSpec: Sendable, Hashable {
    // One copy-on-write box: an API holds its cases in one array, whose elements are then 8 bytes
    // instead of the whole struct, so a large file's array is small while it grows. Guarded by
    // the budget "validate (10,000 cases)" (bench/budgets.json) and `make bench`'s memory figures.
    @usableFromInline var fields: CopyOnWriteBox<Fields>

    /// The stored values of a case; read and written as the case's own (`spec.name`).
    package struct Fields: Sendable, Hashable {
        /// The case's name (`call API CASE`).
        package var name: String
        /// Where the case is declared (its key).
        package var mark: Mark
        /// Shown by `list` and `--help`.
        package var description: String? = nil
        /// The associated values, in declared order.
        package var values: [ValueSpec] = []
        /// The path, starting with `/`; placeholders are escaped as one path segment when rendered.
        package var path: Template
        /// The HTTP method, upper case (`GET` unless the file says otherwise).
        package var method: String = "GET"
        /// Headers merged over the API's (and the environment's); the case wins.
        package var headers: [HeaderSpec] = []
        /// Whether the API's auth applies.
        package var auth: CaseAuthMode = .inherited
        /// What is sent.
        package var task: TaskSpec = .plain
        /// Overrides the API's validation when given.
        package var validation: ValidationSpec? = nil
        /// Overrides the API's total timeout (seconds) when given.
        package var timeout: Double? = nil
        /// The samples, the default one first; empty when the file gives none.
        package var samples: [NamedSample] = []
        /// The argument sets `check` uses, bound and typed (defaults filled in); chained examples,
        /// bound only once their captures are known, are not among them (see `exampleSteps`).
        package var examples: [[String: ArgumentValue]] = []
        /// Every example in file order, chained ones included.
        package var exampleSteps: [ExampleStep] = []
        /// How the case pages (`pagination:`).
        package var pagination: CasePagination = .inherited
        /// What the case takes from its response (`captures:`), in file order.
        package var captures: [Capture] = []
    }

    /// Creates a case.
    @inlinable
    package init(_ fields: Fields) {
        self.fields = CopyOnWriteBox(fields)
    }

    /// A field, read in place and written in place once the box is not shared.
    @inlinable
    package subscript<T>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
        get { fields.value[keyPath: keyPath] }
        _modify { yield &fields.value[keyPath: keyPath] }
    }

    package static func == (lhs: CaseSpec, rhs: CaseSpec) -> Bool {
        lhs.fields.isIdentical(to: rhs.fields) || lhs.fields.value == rhs.fields.value
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(fields.value)
    }

    /// The sample `--stub` uses without `--sample`.
    package var defaultSample: NamedSample? { self.samples.first }

    /// The sample named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownSample` with the valid names.
    package func sample(named name: String) throws(SpecLookupError) -> NamedSample {
        if let sample = self.samples.first(where: { $0.name == name }) { return sample }
        let names = self.samples.map(\.name)
        throw .unknownSample(name, caseName: self.name, suggestion: Suggestion.closest(to: name, in: names), available: names)
    }

    /// A binder for this case's values (for the command line, relative `file` paths from the current folder).
    package func argumentBinder(fileBaseDirectory: String? = nil) -> ArgumentBinder {
        ArgumentBinder(caseName: self.name, values: self.values, fileBaseDirectory: fileBaseDirectory)
    }
}

extension CaseSpec.Fields {
    /// A case with every other field at its default (an ad-hoc request's, made outside this module).
    package init(name: String, mark: Mark, path: Template) {
        self.init(name: name, mark: mark, path: path, method: "GET")
    }
}
