import TargetModel

extension EnvironmentSpec {
    /// The variables' values, their `${...}` read from `processEnvironment`.
    ///
    /// - Throws: `TemplateRenderError.unsetEnvironmentVariable` for a reference that cannot be resolved.
    public func resolvedVariables(processEnvironment: [String: String]) throws(TemplateRenderError) -> [String: String]
    {
        var resolved: [String: String] = [:]
        for variable in variables {
            resolved[variable.name] = try variable.value.render(environment: processEnvironment)
        }
        return resolved
    }
}
