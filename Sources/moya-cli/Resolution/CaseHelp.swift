import MoyaKit
import Paging
import TargetSpec
import TextSafety
import TargetModel

/// `call API --help` and `call API CASE --help`: help written from the target file.
enum CaseHelp {
    /// How many values lead positionally: up to the last required one. Positional words bind in
    /// declared order, so a value with a default or `optional: true` declared before a required
    /// one is positional too; after it, such values are given by name only.
    static func positionalCount(_ spec: CaseSpec) -> Int {
        spec.values.lastIndex(where: \.isRequired).map { $0 + 1 } ?? 0
    }

    static func valuesSynopsis(_ spec: CaseSpec) -> String {
        let positional = positionalCount(spec)
        return spec.values.enumerated().map { index, value in
            index < positional ? " <\(value.name)>" : " [--\(value.name) <\(value.shortTypeName)>]"
        }.joined()
    }

    static func typeName(_ type: ValueType) -> String {
        type.shortName
    }

    static func apiHelp(_ api: APISpec, command: String, access: APIAccess) -> String {
        var text = "USAGE: moya-cli \(command) \(api.name) <case> [values...]\n\n"
        if let description = api.description { text += description + "\n\n" }
        text += "  file: \(api.file)\n" + access.helpLines + "\n"
        text += "CASES:\n"
        let rows = api.cases.map { spec in
            ["  " + spec.name, spec.method, spec.displayedPath, spec.description ?? ""]
        }
        text += TextTable.render(rows)
        text += "\nSee 'moya-cli \(command) \(api.name) <case> --help' for a case's values.\n"
        return text
    }

    static func caseHelp(_ spec: CaseSpec, api: APISpec, command: String, access: APIAccess) -> String {
        var text = "USAGE: moya-cli \(command) \(api.name) \(spec.name)\(valuesSynopsis(spec))\n\n"
        if let description = spec.description { text += description + "\n\n" }
        text += "  \(spec.method) \(spec.displayedPath)    task: \(spec.task.moyaName)\n"
        text += "  file: \(api.file)\n" + access.helpLines
        if !spec.filesRead.isEmpty { text += "  reads: " + spec.filesRead.joined(separator: ", ") + "\n" }
        if !spec.filesWritten.isEmpty { text += "  writes: " + spec.filesWritten.joined(separator: ", ") + "\n" }
        if let pagination = api.pagination(for: spec) {
            text += "  pages: \(pagination.styleName) (--all follows them)\n"
        }
        if !spec.captures.isEmpty {
            text += "  captures: " + spec.captures.map(\.name).joined(separator: ", ") + " (--capture)\n"
        }
        if !spec.values.isEmpty {
            text += "\nVALUES:\n"
            let rows = spec.values.map { value in
                [
                    "  " + value.name, value.shortTypeName,
                    value.defaultValue.map { "default: \(Self.defaultText($0))" }
                        ?? (value.isOptional ? "optional" : "required"), value.description ?? ""
                ]
            }
            text += TextTable.render(rows)
        }
        // A lone `sample:` (named `default`) leaves nothing to choose; curl never stubs.
        let hasNamedSamples = spec.samples.count > 1 || spec.samples.first.map { $0.name != "default" } ?? false
        if command == "call" && hasNamedSamples {
            let names = spec.samples.enumerated().map {
                $0.offset == 0 ? "\($0.element.name) (default)" : $0.element.name
            }
            text += "\nSAMPLES (--stub --sample NAME): " + names.joined(separator: ", ") + "\n"
        }
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES:\n"
            for example in spec.examples {
                text += "  moya-cli \(command) \(api.name) \(spec.name)" + exampleWords(example, spec: spec) + "\n"
            }
        }
        return text
    }

    /// The words of an example as a user would type them: leading values by position, the
    /// optional ones after them by name and only when they differ from their default.
    static func exampleWords(_ example: [String: ArgumentValue], spec: CaseSpec) -> String {
        let positional = positionalCount(spec)
        var words: [String] = []
        for (index, value) in spec.values.enumerated() {
            guard let argument = example[value.name] else { continue }
            if case .list(let elements) = argument, index >= positional {
                // A list by name repeats its option, one element each.
                if argument != value.defaultValue {
                    words += elements.map { "--\(value.name) " + ShellQuoting.quotedUnlessPlain($0.text) }
                }
            } else if case .list = argument {
                words.append(ShellQuoting.quotedUnlessPlain(defaultText(argument)))
            } else if index < positional {
                words.append(ShellQuoting.quotedUnlessPlain(argument.text))
            } else if argument != value.defaultValue {
                words.append("--\(value.name) " + ShellQuoting.quotedUnlessPlain(argument.text))
            }
        }
        return words.map { " " + $0 }.joined()
    }

    static func defaultText(_ value: ArgumentValue) -> String {
        if case .list(let elements) = value { return elements.map(\.text).joined(separator: ",") }
        return value.text
    }
}
