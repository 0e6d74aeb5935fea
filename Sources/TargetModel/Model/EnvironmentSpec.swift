import PositionedYAML

/// One of the API's `environments:` (production, staging, ...).
package struct EnvironmentSpec: Sendable, Hashable {
    /// The environment's name (`--env NAME`).
    package var name: String
    /// Replaces the API's baseURL when given.
    package var baseURL: Template?
    /// Looked up by `${NAME}` before the process environment; their own `${...}` read the process environment.
    package var variables: [Variable]
    /// Merged over the API's headers.
    package var headers: [HeaderSpec]
    /// Where the environment is declared.
    package var mark: Mark

    /// A variable of an environment.
    package struct Variable: Sendable, Hashable {
        /// The variable's name.
        package var name: String
        /// Its value.
        package var value: Template

        /// Creates a variable.
        package init(name: String, value: Template) {
            self.name = name
            self.value = value
        }
    }

    /// Creates an environment.
    package init(name: String, baseURL: Template? = nil, variables: [Variable] = [], headers: [HeaderSpec] = [], mark: Mark) {
        self.name = name
        self.baseURL = baseURL
        self.variables = variables
        self.headers = headers
        self.mark = mark
    }
}
