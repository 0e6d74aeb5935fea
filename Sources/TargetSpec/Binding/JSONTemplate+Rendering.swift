import OrderedJSON
import TargetModel

extension JSONTemplate {
    /// The JSON with every placeholder replaced by its argument.
    ///
    /// - Parameter optionalNames: the case's optional values: a member or element that is a lone
    ///   placeholder of one of them that has no argument is left out.
    /// - Throws: `TemplateRenderError.missingArgument` when a placeholder has no argument.
    public func render(arguments: [String: ArgumentValue], optionalNames: Set<String> = []) throws(TemplateRenderError)
        -> JSONValue
    {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .number(number)
        case .string(let template): return .string(try template.render(arguments: arguments))
        case .placeholder(let name, let mark):
            guard let argument = arguments[name] else { throw .missingArgument(name: name, mark: mark) }
            return argument.json
        case .array(let items):
            var rendered: [JSONValue] = []
            for item in items where !item.isLeftOut(arguments: arguments, optionalNames: optionalNames) {
                rendered.append(try item.render(arguments: arguments, optionalNames: optionalNames))
            }
            return .array(rendered)
        case .object(let members):
            var rendered: [(String, JSONValue)] = []
            for member in members where !member.value.isLeftOut(arguments: arguments, optionalNames: optionalNames) {
                rendered.append(
                    (member.key, try member.value.render(arguments: arguments, optionalNames: optionalNames)))
            }
            return .object(rendered)
        case .literal(let json):
            return json.value
        }
    }
}
