import Assertions
import PositionedYAML

/// A case's `examples:`, each checked like command-line arguments.
extension TargetFileValidator {
    mutating func readExamples(_ node: Node, caseName: String, values: [ValueSpec]) -> [ExampleStep] {
        guard let items = sequence(node, expected: "a list of examples such as - [ashfurrow]") else { return [] }
        let binder = ArgumentBinder(
            caseName: caseName, values: values, fileBaseDirectory: directory, fileRoot: filesFolder,
            probes: probes)
        var examples: [ExampleStep] = []
        for (index, original) in items.enumerated() {
            let label = "example \(index + 1) of case '\(caseName)'"
            // `$expect` is never a value name (names are identifiers), so it cannot collide with one.
            let (item, expectationNode) = Self.splittingExpectation(original)
            let expectation = expectationNode.flatMap { readExpectation($0) }
            var positional: [String] = []
            var positionalMarks: [Mark] = []
            var named: [String: String] = [:]
            var namedKeyMarks: [String: Mark] = [:]
            var namedValueMarks: [String: Mark] = [:]
            var isValid = true
            switch item {
            case .sequence(let elements, _):
                for element in elements {
                    let isList = positional.count < values.count && values[positional.count].type.elementType != nil
                    guard let text = exampleText(element, isList: isList) else {
                        isValid = false
                        continue
                    }
                    positional.append(text)
                    positionalMarks.append(element.mark)
                }
            case .mapping(let entries, _)
            where Self.isChainedExample(keys: entries.map { ($0.key.text, $0.value) }, values: values):
                guard
                    let fields = fields(
                        item, allowed: ["after", "with"], context: "in \(label) (a chained example: after, with)"),
                    var step = readChainedExample(
                        item, fields: fields, number: index + 1, caseName: caseName, values: values)
                else { continue }
                step.expectation = expectation
                examples.append(step)
                continue
            case .mapping(let entries, _):
                for entry in entries {
                    let isList = values.first { $0.name == entry.key.text }?.type.elementType != nil
                    guard let text = exampleText(entry.value, isList: isList) else {
                        isValid = false
                        continue
                    }
                    named[entry.key.text] = text
                    namedKeyMarks[entry.key.text] = entry.key.mark
                    namedValueMarks[entry.key.text] = entry.value.mark
                }
            case .scalar:
                error(
                    "\(label) is a list of values (positional) or a map (by name), like [ashfurrow] or {name: ashfurrow}",
                    at: item.mark)
                continue
            }
            let (arguments, errors) = binder.bindReportingAll(positional: positional, named: named)
            for problem in errors {
                var mark = item.mark
                if let name = problem.valueName {
                    // A wrong value points at the value; a wrong or repeated name at the key; a
                    // missing value at the example itself.
                    switch problem {
                    case .missingValue:
                        break
                    case .unknownValue, .duplicateValue:
                        mark = namedKeyMarks[name] ?? mark
                    default:
                        if let valueMark = namedValueMarks[name] {
                            mark = valueMark
                        } else if let position = values.firstIndex(where: { $0.name == name }),
                            position < positionalMarks.count
                        {
                            mark = positionalMarks[position]
                        }
                    }
                } else if case .tooManyValues(_, _, let accepted, _) = problem, accepted < positionalMarks.count {
                    mark = positionalMarks[accepted]
                }
                error("\(label): \(problem)", at: mark)
            }
            if isValid && errors.isEmpty {
                var step = ExampleStep(number: index + 1, kind: .arguments(arguments))
                step.expectation = expectation
                examples.append(step)
            }
        }
        return examples
    }

    /// The key an example's own expectations are under: not an identifier, so never a value's name.
    static let exampleExpectationKey = "$expect"

    /// `item` without its `$expect` entry, and that entry's value. A map example holding only
    /// `$expect` and `$values` (positional values, a list) is the positional example.
    static func splittingExpectation(_ item: Node) -> (Node, Node?) {
        guard case .mapping(let entries, let mark) = item,
            let index = entries.firstIndex(where: { $0.key.text == exampleExpectationKey })
        else { return (item, nil) }
        var rest = entries
        let expectation = rest.remove(at: index).value
        if rest.count == 1, rest[0].key.text == "$values" { return (rest[0].value, expectation) }
        return (.mapping(rest, mark), expectation)
    }

    /// An `expect:` map, every problem reported at its place.
    mutating func readExpectation(_ node: Node) -> Expectation? {
        var reader = ExpectationReader()
        let expectation = reader.read(node)
        for problem in reader.problems { error(problem.message, at: problem.mark) }
        return expectation
    }

    /// Whether a map example is a step of a chain (`{after: CASE, with: {…}}`) rather than values
    /// by name. A value may be named like a key of a step (cursor paging's `after`, 51 times in
    /// OpenAI's description): when the case has a value named `after`, a map is a step only when
    /// it also gives `with` as a map (which no value can take), so `{after: item_9}` is that
    /// value, and a step of such a case says `with: {}` at least.
    static func isChainedExample(keys: [(String, Node)], values: [ValueSpec]) -> Bool {
        guard keys.contains(where: { $0.0 == "after" }) else { return false }
        guard values.contains(where: { $0.name == "after" }) else { return true }
        return keys.contains { key, value in
            guard key == "with", case .mapping = value else { return false }
            return true
        }
    }

    /// An example's value as command-line text: any non-null scalar, written as in the file; for
    /// a list value, a list of them, joined with commas.
    private mutating func exampleText(_ node: Node, isList: Bool = false) -> String? {
        if isList, case .sequence(let items, _) = node {
            var texts: [String] = []
            for item in items {
                guard case .scalar = item else {
                    typeError(expected: "a value (string, number or bool)", found: item)
                    return nil
                }
                guard let text = exampleText(item) else { return nil }
                if text.contains(",") {
                    error("an element of a list example cannot contain a comma", at: item.mark)
                    return nil
                }
                texts.append(text)
            }
            return texts.joined(separator: ",")
        }
        guard case .scalar(let scalar) = node, scalar.resolved != .null else {
            typeError(expected: "a value (string, number or bool)", found: node)
            return nil
        }
        if case .string(let text) = scalar.resolved { return text }
        return scalar.text
    }
}
