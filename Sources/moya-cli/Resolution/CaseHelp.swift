import MoyaKit
import Paging
import TargetModel
import TargetSpec
import TextSafety

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

    /// The help of `api`: its cases. With `width` (a terminal's), every line fits it, wrapped
    /// with a hanging indent and the table's columns kept aligned; on a pipe, lines are whole.
    static func apiHelp(_ api: APISpec, command: String, access: APIAccess, width: Int? = nil) -> String {
        var text = usage(["moya-cli", command, api.name, "<case>", "[values...]"], width: width) + "\n"
        if let description = api.description { text += fitted(description + "\n\n", width: width) }
        text += fitted("  file: \(api.file)\n" + access.helpLines + "\n", width: width)
        text += "CASES:\n"
        let rows = api.cases.map { spec in
            ["  " + spec.name, spec.method, spec.displayedPath, spec.description ?? ""]
        }
        text += TextTable.render(
            rows, width: width, fits: [.whole, .whole, .wraps(minimum: 8), .spillsBelow(minimum: 24)], hasHeader: false,
            breaksWholeCells: true)
        text += fitted("\nSee 'moya-cli \(command) \(api.name) <case> --help' for a case's values.\n", width: width)
        return text
    }

    /// The help of one case: its values, samples and examples; fitted to `width` as
    /// ``apiHelp(_:command:access:width:)`` is.
    static func caseHelp(_ spec: CaseSpec, api: APISpec, command: String, access: APIAccess, width: Int? = nil)
        -> String
    {
        let positional = positionalCount(spec)
        let synopsis = spec.values.enumerated().map { index, value in
            index < positional ? "<\(value.name)>" : "[--\(value.name) <\(value.shortTypeName)>]"
        }
        var text = usage(["moya-cli", command, api.name, spec.name] + synopsis, width: width) + "\n"
        var lines = ""
        if let description = spec.description { lines += description + "\n\n" }
        lines += "  \(spec.method) \(spec.displayedPath)    task: \(spec.task.moyaName)\n"
        lines += "  file: \(api.file)\n" + access.helpLines
        if !spec.filesRead.isEmpty { lines += "  reads: " + spec.filesRead.joined(separator: ", ") + "\n" }
        if !spec.filesWritten.isEmpty { lines += "  writes: " + spec.filesWritten.joined(separator: ", ") + "\n" }
        if let pagination = api.pagination(for: spec) {
            lines += "  pages: \(pagination.styleName) (--all follows them)\n"
        }
        if !spec.captures.isEmpty {
            lines += "  captures: " + spec.captures.map(\.name).joined(separator: ", ") + " (--capture)\n"
        }
        if let expectation = spec.expectation {
            lines += "  expect:\n" + expectation.summaryLines.map { "    \($0)\n" }.joined()
        }
        for step in spec.exampleSteps {
            guard let expectation = step.expectation else { continue }
            lines += "  expect of example \(step.number):\n" + expectation.summaryLines.map { "    \($0)\n" }.joined()
        }
        text += fitted(lines, width: width)
        if !spec.values.isEmpty {
            text += "\nVALUES:\n"
            let rows = spec.values.map { value in
                [
                    "  " + value.name, value.shortTypeName,
                    value.defaultValue.map { "default: \(Self.defaultText($0))" }
                        ?? (value.isOptional ? "optional" : "required"), value.description ?? ""
                ]
            }
            text += TextTable.render(
                rows, width: width, fits: [.whole, .wraps(minimum: 6), .wraps(minimum: 8), .spillsBelow(minimum: 24)],
                hasHeader: false, breaksWholeCells: true)
        }
        // A lone `sample:` (named `default`) leaves nothing to choose; curl never stubs.
        let hasNamedSamples = spec.samples.count > 1 || spec.samples.first.map { $0.name != "default" } ?? false
        if command == "call" && hasNamedSamples {
            let names = spec.samples.enumerated().map {
                $0.offset == 0 ? "\($0.element.name) (default)" : $0.element.name
            }
            text += fitted("\nSAMPLES (--stub --sample NAME): " + names.joined(separator: ", ") + "\n", width: width)
        }
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES:\n"
            for example in spec.examples {
                text += fitted(
                    "  moya-cli \(command) \(api.name) \(spec.name)" + exampleWords(example, spec: spec) + "\n",
                    width: width)
            }
        }
        return text
    }

    /// `USAGE: ` and `words`; on a terminal, wrapped between words (a word such as
    /// `[--page <int>]` is never broken unless it is wider than a line), aligned after `USAGE: `.
    private static func usage(_ words: [String], width: Int?) -> String {
        let label = "USAGE: "
        guard let width else { return label + words.joined(separator: " ") + "\n" }
        let lines = DisplayColumns.wrapped(
            words: words.map { DisplayText.escaped($0) }, width: max(width, TextTable.narrowestWidth) - label.count)
        let indent = String(repeating: " ", count: label.count)
        return lines.enumerated().map { ($0.offset == 0 ? label : indent) + $0.element + "\n" }.joined()
    }

    /// `text` as it is on a pipe; on a terminal each line is wrapped at spaces to `width`, an
    /// indented line's continuation 2 columns further in (a paragraph's, none), so that no line
    /// is wider than the terminal. Lines keep their breaks; the text is escaped as it is wrapped.
    static func fitted(_ text: String, width: Int?) -> String {
        guard let terminalWidth = width else { return text }
        let width = max(terminalWidth, TextTable.narrowestWidth)
        var output = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { output += "\n" }
            let lead = line.prefix { $0 == " " }.count
            let hanging = lead > 0 ? min(lead + 2, width / 2) : 0
            let room = max(1, width - lead)
            let wrapped = DisplayColumns.wrapped(String(line.dropFirst(lead)), width: room, indent: hanging - lead)
            let margin = String(repeating: " ", count: lead)
            let continuation = String(repeating: " ", count: hanging)
            output += wrapped.enumerated().map { ($0.offset == 0 ? margin : continuation) + $0.element }
                .joined(separator: "\n")
        }
        return output
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
