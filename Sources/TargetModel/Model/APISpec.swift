/// One API, as a target file describes it: a Moya target enum with its cases.
@dynamicMemberLookup
public struct APISpec: Sendable, Hashable {
    // One copy-on-write box, as `CaseSpec`'s: each builder and render context holds the API,
    // and a copy is then one reference instead of nineteen fields.
    @usableFromInline var fields: CopyOnWriteBox<Fields>

    /// The stored values of an API; read and written as the API's own (`api.name`).
    public struct Fields: Sendable, Hashable {
        /// The API's name on the command line.
        public var name: String
        /// The target file, as it was named (relative paths stay relative).
        public var file: String
        /// The folder holding the target file: `dataFile`, `upload`, multipart files, sample files
        /// and `file` defaults are relative to it (`APISpec.folder(of: file)` unless given).
        public var directory: String
        /// Shown by `list`.
        public var description: String? = nil
        /// The base URL (may hold `${VAR}`); an environment's baseURL replaces it.
        public var baseURL: Template
        /// Headers sent with every case.
        public var headers: [HeaderSpec] = []
        /// The API's credentials, if any: its only scheme, or its default one.
        public var auth: AuthSpec? = nil
        /// The API's named auth schemes (`auth: {default: ..., schemes: {...}}`); a one-scheme
        /// `auth: {type: ...}` is the scheme named by its type.
        public var authSchemes: [NamedAuthScheme] = []
        /// Which status codes count as success, unless a case overrides it; `nil` when the file
        /// does not say (then `ValidationSpec.unwritten`, which `validate` notes).
        public var validation: ValidationSpec? = nil
        /// The total time a request may take, in seconds (`timeout:`); `nil`: no total limit,
        /// as URLSession's resource timeout is days long: `idleTimeout` ends a stalled transfer.
        public var timeout: Double? = nil
        /// The longest a request may go without sending or receiving a byte, in seconds
        /// (`idleTimeout:`), as URLSession's `timeoutIntervalForRequest`.
        public var idleTimeout: Double = APISpec.defaultIdleTimeout
        /// Whether the cases' redirects are followed, unless a case says (`redirects:`).
        public var redirects: RedirectPolicy? = nil
        /// Connection timeout in seconds.
        public var connectTimeout: Double = 10
        /// The environments, in file order.
        public var environments: [EnvironmentSpec] = []
        /// The environment used when `--env` is absent.
        public var defaultEnvironment: String? = nil
        /// The cases, in file order.
        public var cases: [CaseSpec]
        /// Lowercased names of headers the file marks as secret (`sensitiveHeaders:`), beyond
        /// `SensitiveHeaders.defaultNames` and headers built from a secret.
        public var sensitiveHeaders: Set<String> = []
        /// `--file-root`, when given at load: files the target file names are inside it.
        public var fileRoot: String? = nil
        /// How the API's cases page, unless a case says otherwise (`pagination:` at the top level).
        public var pagination: Pagination? = nil
        /// Whether the run keeps the cookies the API's responses set and sends them back
        /// (`cookies: false` turns it off).
        public var keepsCookies: Bool = true
        /// `tls: {pinnedPublicKeys: [sha256//…]}`: the public keys the API's servers may have (an
        /// environment may replace them); empty: any key.
        public var pinnedPublicKeys: [String] = []
        /// `tls: {crlFile:, clientCert:, clientKey:}`: files the API's requests use (as written;
        /// relative ones from `directory`), honoured for a trusted file only.
        public var tlsFiles = TLSFiles()
        /// The process environment variables the file's `${VAR}` references read, sorted (set by
        /// the loader): what `list` and help show, and what `EnvironmentAllowance` decides on.
        public var environmentVariables: [String] = []
        /// `prepare: [program, args…]`: a program run once per request sent, which reads the
        /// request as JSON on stdin and prints headers to add (trusted files only).
        public var prepareCommand: CommandAuthSpec? = nil
        /// `cache: true`: the HTTP cache answers and keeps the API's responses (`--cache` for all,
        /// `--no-cache` for none).
        public var usesCache: Bool = false
    }

    /// The idle timeout of a file that does not set one, in seconds: URLSession's.
    public static let defaultIdleTimeout: Double = 60

    /// Creates an API.
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

    // Dynamic member lookup is not tried where a member of that base name exists: these two
    // share theirs with `auth(for:)` and `pagination(for:)`.
    /// The API's credentials, if any: its only scheme, or its default one.
    @inlinable
    public var auth: AuthSpec? {
        get { fields.value.auth }
        set { fields.value.auth = newValue }
    }
    /// How the API's cases page, unless a case says otherwise (`pagination:` at the top level).
    @inlinable
    public var pagination: Pagination? {
        get { fields.value.pagination }
        set { fields.value.pagination = newValue }
    }

    public static func == (lhs: APISpec, rhs: APISpec) -> Bool {
        lhs.fields.isIdentical(to: rhs.fields) || lhs.fields.value == rhs.fields.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.value)
    }

    /// Where files the target file names must be: `fileRoot`, else the file's folder.
    public var filesFolder: String { self.fileRoot ?? self.directory }

    /// The folder part of a path (`.` when there is none).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` resolved against the target file's folder unless it is absolute.
    public func resolvedPath(_ path: String) -> String {
        RelativeFile.resolve(path, against: self.directory)
    }

    /// The case named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownCase` with a did-you-mean and the valid names.
    public func `case`(named name: String) throws(SpecLookupError) -> CaseSpec {
        if let found = self.cases.first(where: { $0.name == name }) { return found }
        throw unknownCase(name, among: self.cases.map(\.name))
    }

    /// The error for a case `name` that is not among the API's cases `names`, with a did-you-mean.
    public func unknownCase(_ name: String, among names: [String]) -> SpecLookupError {
        .unknownCase(name, apiName: self.name, suggestion: Suggestion.closest(to: name, in: names), available: names)
    }

    /// The environment named `name`.
    ///
    /// - Throws: `SpecLookupError.unknownEnvironment` with the valid names.
    public func environment(named name: String) throws(SpecLookupError) -> EnvironmentSpec {
        if let found = self.environments.first(where: { $0.name == name }) { return found }
        let names = self.environments.map(\.name)
        throw .unknownEnvironment(
            name, apiName: self.name, suggestion: Suggestion.closest(to: name, in: names), available: names)
    }
}

extension APISpec {
    /// How `spec` pages: its own `pagination:`, else the API's; `nil` when it does not page.
    public func pagination(for spec: CaseSpec) -> Pagination? {
        switch spec.pagination {
        case .inherited: self.pagination
        case .none: nil
        case .paged(let own): own
        }
    }

    /// The credentials a case with `mode` sends: none for `auth: none`, the named scheme for
    /// `auth: NAME`, else the API's (default) auth.
    public func auth(for mode: CaseAuthMode) -> AuthSpec? {
        switch mode {
        case .none: nil
        case .inherited: self.auth
        case .explicit, .scheme: self.authSchemes.first { $0.name == mode.schemeName }?.auth ?? self.auth
        }
    }
}

extension APISpec.Fields {
    /// An API with every other field at its default (an ad-hoc request's, made outside this module).
    package init(name: String, file: String, directory: String, baseURL: Template, cases: [CaseSpec]) {
        self.init(name: name, file: file, directory: directory, description: nil, baseURL: baseURL, cases: cases)
    }
}

extension APISpec {
    /// The files of `tls:` (curl's --crlfile, --cert, --key), as the file writes them.
    public struct TLSFiles: Sendable, Hashable {
        /// `crlFile`: certificate revocation lists (PEM).
        public var crlFile: String?
        /// `clientCert`: the client certificate (PEM, or PKCS#12 when it ends in .p12 or .pfx).
        public var clientCertificate: String?
        /// `clientKey`: the client certificate's private key (PEM).
        public var clientKey: String?

        /// No files.
        public init(crlFile: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil) {
            self.crlFile = crlFile
            self.clientCertificate = clientCertificate
            self.clientKey = clientKey
        }

        /// Whether the file names none.
        public var isEmpty: Bool { crlFile == nil && clientCertificate == nil && clientKey == nil }
    }
}
