
/// One API, as a target file describes it: a Moya target enum with its cases.
public struct APISpec: Sendable, Hashable {
    /// The API's name on the command line.
    public var name: String
    /// The target file, as it was named (relative paths stay relative).
    public var file: String
    /// The folder holding the target file: `dataFile`, `upload`, multipart files, sample files
    /// and `file` defaults are relative to it.
    public var directory: String
    /// Shown by `list`.
    public var description: String?
    /// The base URL (may hold `${VAR}`); an environment's baseURL replaces it.
    public var baseURL: Template
    /// Headers sent with every case.
    public var headers: [HeaderSpec]
    /// The API's credentials, if any: its only scheme, or its default one.
    public var auth: AuthSpec?
    /// The API's named auth schemes (`auth: {default: ..., schemes: {...}}`); a one-scheme
    /// `auth: {type: ...}` is the scheme named by its type.
    public var authSchemes: [NamedAuthScheme]
    /// Which status codes count as success, unless a case overrides it.
    public var validation: ValidationSpec
    /// Total request timeout in seconds.
    public var timeout: Double
    /// Connection timeout in seconds.
    public var connectTimeout: Double
    /// The environments, in file order.
    public var environments: [EnvironmentSpec]
    /// The environment used when `--env` is absent.
    public var defaultEnvironment: String?
    /// The cases, in file order.
    public var cases: [CaseSpec]
    /// `--file-root`, when given at load: files the target file names are inside it.
    public var fileRoot: String?
    /// Where files the target file names must be: `fileRoot`, else the file's folder.
    public var filesFolder: String { fileRoot ?? directory }
    /// Lowercased names of headers the file marks as secret (`sensitiveHeaders:`), beyond
    /// `SensitiveHeaders.defaultNames` and headers built from a secret.
    public var sensitiveHeaders: Set<String>
    /// How the API's cases page, unless a case says otherwise (`pagination:` at the top level).
    public var pagination: Pagination?
    /// The process environment variables the file's `${VAR}` references read, sorted (set by
    /// the loader): what `list` and help show, and what `EnvironmentAllowance` decides on.
    public var environmentVariables: [String] = []

    /// Creates an API.
    public init(
        name: String, file: String, directory: String? = nil, description: String? = nil, baseURL: Template, headers: [HeaderSpec] = [],
        auth: AuthSpec? = nil, authSchemes: [NamedAuthScheme]? = nil, validation: ValidationSpec = .none, timeout: Double = 60, connectTimeout: Double = 10,
        environments: [EnvironmentSpec] = [], defaultEnvironment: String? = nil, cases: [CaseSpec], sensitiveHeaders: Set<String> = [], fileRoot: String? = nil,
        pagination: Pagination? = nil
    ) {
        self.pagination = pagination
        self.sensitiveHeaders = sensitiveHeaders
        self.fileRoot = fileRoot
        self.name = name
        self.file = file
        self.directory = directory ?? Self.folder(of: file)
        self.description = description
        self.baseURL = baseURL
        self.headers = headers
        self.auth = auth
        self.authSchemes = authSchemes ?? auth.map { [NamedAuthScheme(name: $0.kind.rawValue, auth: $0)] } ?? []
        self.validation = validation
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.environments = environments
        self.defaultEnvironment = defaultEnvironment
        self.cases = cases
    }

    /// The folder part of a path (`.` when there is none).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` resolved against the target file's folder unless it is absolute.
    public func resolvedPath(_ path: String) -> String {
        RelativeFile.resolve(path, against: directory)
    }

    /// The case named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownCase` with a did-you-mean and the valid names.
    public func `case`(named name: String) throws(SpecLookupError) -> CaseSpec {
        if let found = cases.first(where: { $0.name == name }) { return found }
        throw unknownCase(name, among: cases.map(\.name))
    }

    /// The error for a case `name` that is not among the API's cases `names`, with a did-you-mean.
    public func unknownCase(_ name: String, among names: [String]) -> SpecLookupError {
        .unknownCase(name, apiName: self.name, suggestion: Suggestion.closest(to: name, in: names), available: names)
    }

    /// The environment named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownEnvironment` with the valid names.
    public func environment(named name: String) throws(SpecLookupError) -> EnvironmentSpec {
        if let found = environments.first(where: { $0.name == name }) { return found }
        let names = environments.map(\.name)
        throw .unknownEnvironment(name, apiName: self.name, suggestion: Suggestion.closest(to: name, in: names), available: names)
    }
}

extension APISpec {
    /// How `spec` pages: its own `pagination:`, else the API's; `nil` when it does not page.
    public func pagination(for spec: CaseSpec) -> Pagination? {
        switch spec.pagination {
        case .inherited: pagination
        case .none: nil
        case .paged(let own): own
        }
    }

    /// The credentials a case with `mode` sends: none for `auth: none`, the named scheme for
    /// `auth: NAME`, else the API's (default) auth.
    public func auth(for mode: CaseAuthMode) -> AuthSpec? {
        switch mode {
        case .none: nil
        case .inherited: auth
        case .explicit, .scheme: authSchemes.first { $0.name == mode.schemeName }?.auth ?? auth
        }
    }
}
