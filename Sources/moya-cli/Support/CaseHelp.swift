import MoyaKit
import TargetSpec

/// `call API --help` and `call API CASE --help`: help written from the target file.
enum CaseHelp {
    static func valuesSynopsis(_ spec: CaseSpec) -> String {
        spec.values.map { value in
            value.isRequired ? " <\(value.name)>" : " [--\(value.name) <\(typeName(value.type))>]"
        }.joined()
    }

    static func typeName(_ type: ValueType) -> String {
        if case .enumeration(let cases) = type { return cases.joined(separator: "|") }
        return type.name
    }

    static func apiHelp(_ api: APISpec, command: String) -> String {
        var text = "USAGE: moya-cli \(command) \(api.name) <case> [values...]\n\n"
        if let description = api.description { text += description + "\n\n" }
        text += "CASES:\n"
        let rows = api.cases.map { spec in
            ["  " + spec.name, spec.method + " " + spec.path.source, spec.description ?? ""]
        }
        text += TextTable.render(rows)
        text += "\nSee 'moya-cli \(command) \(api.name) <case> --help' for a case's values.\n"
        return text
    }

    static func caseHelp(_ spec: CaseSpec, api: APISpec, command: String) -> String {
        var text = "USAGE: moya-cli \(command) \(api.name) \(spec.name)\(valuesSynopsis(spec))\n\n"
        if let description = spec.description { text += description + "\n\n" }
        text += "  \(spec.method) \(spec.path.source)    task: \(spec.task.moyaName)\n"
        if !spec.values.isEmpty {
            text += "\nVALUES:\n"
            let rows = spec.values.map { value in
                [
                    "  " + value.name, typeName(value.type),
                    value.defaultValue.map { "default: \($0.text)" } ?? "required", value.description ?? "",
                ]
            }
            text += TextTable.render(rows)
        }
        if !spec.samples.isEmpty {
            let names = spec.samples.enumerated().map { $0.offset == 0 ? "\($0.element.name) (default)" : $0.element.name }
            text += "\nSAMPLES (--stub --sample NAME): " + names.joined(separator: ", ") + "\n"
        }
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES:\n"
            for example in spec.examples {
                let words = spec.values.compactMap { value in example[value.name].map { Self.shellWord($0.text) } }
                text += "  moya-cli \(command) \(api.name) \(spec.name) " + words.joined(separator: " ") + "\n"
            }
        }
        return text
    }

    static func shellWord(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:@".contains($0) }
        return safe && !text.isEmpty ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
