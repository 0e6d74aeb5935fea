import TargetModel
import TextSafety

extension SwiftGenerator {
    /// `examples`: each example of the target file as a case value, with the words `moya-cli call
    /// API` takes for the same request (every value by `--value NAME=VALUE`, relative files from
    /// the target file's folder), so a test can send both and compare.
    func writeExamples(into source: inout SwiftSource) {
        var entries: [SwiftExpression] = []
        for (spec, identifier, values) in names.cases {
            // A case whose values all have defaults (or are optional) needs no example: it is sent
            // once with none, as `check` sends it.
            let examples = spec.examples.isEmpty && !spec.values.contains(where: \.isRequired) ? [[:]] : spec.examples
            for example in examples {
                var arguments: [SwiftExpression] = []
                var words = [SwiftLiteral.quoted(spec.name)]
                for value in values {
                    guard let given = example[value.spec.name].map(portable) else { continue }
                    let label = SwiftIdentifier.label(value.identifier) + ": "
                    arguments.append(.atom(label + exampleLiteral(given, kind: value.kind)))
                    let elements: [ArgumentValue] = if case .list(let items) = given { items } else { [given] }
                    for element in elements {
                        words.append(SwiftLiteral.quoted("--value"))
                        words.append(SwiftLiteral.quoted(value.spec.name + "=" + Self.commandLineText(element)))
                    }
                }
                let name = "." + SwiftIdentifier.written(identifier)
                let target: SwiftExpression =
                    values.isEmpty ? .atom(name) : arguments.isEmpty ? .atom(name + "()") : .call(name, arguments)
                entries.append(
                    .collection(
                        open: "(", [target, .collection(open: "[", words.map { .atom($0) }, close: "]")], close: ")"))
            }
        }
        source.block("extension " + typeName) { body in
            body.line(
                "/// Each example of the target file: the case, and the words `moya-cli call "
                    + SwiftLiteral.commentText(api.name))
            body.line("/// CASE` takes for the same request (relative files from the target file's folder).")
            let declaration = access + "static var examples: [(target: " + typeName + ", arguments: [String])]"
            body.block(declaration) { property in
                property.expression(.prefixed("return ", .collection(open: "[", entries, close: "]")))
            }
        }
    }

    /// The value with a file of the target file's folder named relative to that folder (as the
    /// file itself names it): the binder made it absolute, and the table must read the same
    /// wherever the checkout is.
    private func portable(_ value: ArgumentValue) -> ArgumentValue {
        switch value {
        case .list(let items): return .list(items.map(portable))
        case .file(let path):
            let folder = api.directory.hasSuffix("/") ? api.directory : api.directory + "/"
            guard path.hasPrefix(folder), path.count > folder.count else { return value }
            return .file(path: String(path.dropFirst(folder.count)))
        default: return value
        }
    }

    /// A bound example value as a Swift literal of its type.
    private func exampleLiteral(_ value: ArgumentValue, kind: GeneratedValue.Kind) -> String {
        switch (value, kind) {
        case (.list(let items), .list(let element)):
            return "[" + items.map { exampleLiteral($0, kind: element) }.joined(separator: ", ") + "]"
        case (.file(let path), _):
            if path.hasPrefix("/") { return "URL(fileURLWithPath: " + SwiftLiteral.quoted(path) + ")" }
            return typeName + ".configuration.filesFolder.appendingPathComponent(" + SwiftLiteral.quoted(path) + ")"
        default:
            return literal(value, kind: kind) ?? SwiftLiteral.quoted(value.text)
        }
    }

    /// The text `moya-cli call` is given: a double as Swift writes it (what the enum sends).
    static func commandLineText(_ value: ArgumentValue) -> String {
        if case .double(let number) = value, let double = Double(number.text) { return double.description }
        return value.text
    }
}
