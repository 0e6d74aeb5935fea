import PositionedYAML

/// One of the API's `environments:` (production, staging, ...).
public struct EnvironmentSpec: Sendable, Hashable {
    /// The environment's name (`--env NAME`).
    public var name: String
    /// Replaces the API's baseURL when given.
    public var baseURL: Template?
    /// Looked up by `${NAME}` before the process environment; their own `${...}` read the process environment.
    public var variables: [Variable]
    /// Merged over the API's headers.
    public var headers: [HeaderSpec]
    /// Where the environment is declared.
    public var mark: Mark
    /// `tls: {pinnedPublicKeys: [...]}`: replaces the API's pins in this environment (`nil`: the API's).
    public var pinnedPublicKeys: [String]? = nil
    /// `resolve: [HOST:PORT:ADDRESS, ...]`: the addresses its base URL's host is connected to, as
    /// curl's `--resolve` (TLS still verifies the host), in libcurl's form.
    public var resolve: [String] = []

    /// A variable of an environment.
    public struct Variable: Sendable, Hashable {
        /// The variable's name.
        public var name: String
        /// Its value.
        public var value: Template

        /// Creates a variable.
        public init(name: String, value: Template) {
            self.name = name
            self.value = value
        }
    }

    /// Creates an environment.
    public init(
        name: String, baseURL: Template? = nil, variables: [Variable] = [], headers: [HeaderSpec] = [], mark: Mark
    ) {
        self.name = name
        self.baseURL = baseURL
        self.variables = variables
        self.headers = headers
        self.mark = mark
    }
}
