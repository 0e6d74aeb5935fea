import MoyaKit
import TargetSpec

/// What `list` prints: aligned tables for people, a stable JSON document for scripts.
enum CatalogListing {
    /// One row per API (invalid files say so in CASES), then one per shadowed definition.
    static func table(of catalog: TargetCatalog, width: Int? = nil) -> String {
        var rows = [["API", "CASES", "FILE", "DESCRIPTION"]]
        for entry in catalog.entries {
            rows.append([entry.name, entry.api.map { String($0.cases.count) } ?? "invalid", entry.file, entry.api?.description ?? ""])
        }
        for entry in catalog.shadowed {
            rows.append([entry.name, "-", entry.file, shadowNote(entry, in: catalog)])
        }
        return TextTable.render(rows, width: width)
    }

    /// Why a definition is not used: a lower level's file is shadowed; a second file at the same
    /// level is an error (reported on stderr), which the note says.
    private static func shadowNote(_ entry: TargetCatalog.Entry, in catalog: TargetCatalog) -> String {
        let winner = catalog.entries.first { $0.name == entry.name }
        if let winner, winner.level == entry.level {
            return "error: defined again at the same level as \(winner.file)"
        }
        return "shadowed by \(entry.shadowedBy ?? winner?.file ?? "an earlier file")"
    }

    /// Whether the entry's file loaded without errors (a same-level duplicate is an error too).
    private static func isValid(_ entry: TargetCatalog.Entry, in catalog: TargetCatalog) -> Bool {
        entry.api != nil && !catalog.diagnostics.contains { $0.severity == .error && $0.file == entry.file }
    }

    /// One row per case: method, path, task kind, values (`name: type = default`), description;
    /// a FILES column (`reads a; writes b`) when some case reads or writes a file.
    static func table(of api: APISpec, width: Int? = nil) -> String {
        let showsFiles = api.cases.contains { $0.filesSummary != nil }
        var rows = [["CASE", "METHOD", "PATH", "TASK", "VALUES"] + (showsFiles ? ["FILES"] : []) + ["DESCRIPTION"]]
        for spec in api.cases {
            rows.append([
                spec.name, spec.method, spec.path.source, spec.task.moyaName,
                spec.values.map(\.signature).joined(separator: ", "),
            ] + (showsFiles ? [spec.filesSummary ?? ""] : []) + [spec.description ?? ""])
        }
        return TextTable.render(rows, width: width)
    }

    /// `{"apis": [...]}`: the winners in discovery order, then the shadowed definitions.
    static func json(of catalog: TargetCatalog) -> String {
        let apis = (catalog.entries + catalog.shadowed).map { entryJSON($0, valid: isValid($0, in: catalog)) }
        return JSONValue.object([("apis", .array(apis))]).serializedString(options: .prettyPrinted) + "\n"
    }

    private static func entryJSON(_ entry: TargetCatalog.Entry, valid: Bool) -> JSONValue {
        .object([
            ("name", .string(entry.name)),
            ("file", .string(entry.file)),
            ("source", .string(entry.level.description)),
            ("valid", .bool(valid)),
            ("cases", entry.api.map { .int($0.cases.count) } ?? .null),
            ("description", entry.api?.description.map { .string($0) } ?? .null),
            ("shadowedBy", entry.shadowedBy.map { .string($0) } ?? .null),
        ])
    }

    /// One API: its file, base URL, environments and every case with its values and samples.
    static func json(of api: APISpec) -> String {
        let cases: [JSONValue] = api.cases.map { spec in
            .object([
                ("name", .string(spec.name)),
                ("method", .string(spec.method)),
                ("path", .string(spec.path.source)),
                ("task", .string(spec.task.moyaName)),
                ("description", spec.description.map { .string($0) } ?? .null),
                ("values", .array(spec.values.map(valueJSON))),
                ("samples", .array(spec.samples.map { .string($0.name) })),
                ("examples", .int(spec.exampleSteps.count)),
                ("reads", .array(spec.filesRead.map { .string($0) })),
                ("writes", .array(spec.filesWritten.map { .string($0) })),
            ])
        }
        let document: JSONValue = .object([
            ("name", .string(api.name)),
            ("file", .string(api.file)),
            ("baseURL", .string(api.baseURL.source)),
            ("description", api.description.map { .string($0) } ?? .null),
            ("environments", .array(api.environments.map { .string($0.name) })),
            ("cases", .array(cases)),
        ])
        return document.serializedString(options: .prettyPrinted) + "\n"
    }

    private static func valueJSON(_ value: ValueSpec) -> JSONValue {
        var object: [(String, JSONValue)] = [("name", .string(value.name)), ("type", .string(value.type.name))]
        if case .list(let element) = value.type {
            object.append(("elements", .string(element.name)))
        }
        if case .enumeration(let cases) = value.type.elementType ?? value.type {
            object.append(("cases", .array(cases.map { .string($0) })))
        }
        object.append(("required", .bool(value.isRequired)))
        object.append(("optional", .bool(value.isOptional)))
        object.append(("default", value.defaultValue.map(\.json) ?? .null))
        object.append(("description", value.description.map { .string($0) } ?? .null))
        return .object(object)
    }
}

/// Left-aligned columns separated by two spaces; trailing blanks trimmed.
enum TextTable {
    /// The rows as aligned text, one line each; the first row is the header. Cells come from
    /// target files: their control characters are shown escaped, so a row stays one line. With
    /// `width` (a terminal's), lines are fitted to it: the last column (a description) gives way
    /// first, then the widest ones, cut with `…`; piped output keeps every cell whole.
    static func render(_ rows: [[String]], width: Int? = nil) -> String {
        let rows = rows.map { $0.map { DisplayText.escaped($0) } }
        guard let columns = rows.map(\.count).max() else { return "" }
        // Each cell's characters, counted once (a case list has thousands of rows).
        let counts = rows.map { $0.map(characterCount) }
        var widths = Array(repeating: 0, count: columns)
        for row in counts {
            for (index, count) in row.enumerated() { widths[index] = max(widths[index], count) }
        }
        if let width { widths = fitted(widths, into: width) }
        var output: [UInt8] = []
        for (rowIndex, row) in rows.enumerated() {
            // A row of ASCII cells (nearly all) is laid out in bytes; any other, in characters.
            guard row.allSatisfy(isPlainASCII) else {
                output += (characterLine(row, counts: counts[rowIndex], widths: widths) + "\n").utf8
                continue
            }
            let start = output.count
            for (index, cell) in row.enumerated() {
                let count = counts[rowIndex][index]
                let isCut = count > widths[index]
                let shownCount = isCut ? max(0, widths[index] - 1) + 1 : count
                if isCut {
                    output += cell.utf8.prefix(max(0, widths[index] - 1))
                    output += "…".utf8
                } else {
                    output += cell.utf8
                }
                if index < row.count - 1 {
                    output += repeatElement(UInt8(ascii: " "), count: widths[index] + 2 - shownCount)
                }
            }
            while output.count > start && output[output.count - 1] == UInt8(ascii: " ") { output.removeLast() }
            output.append(UInt8(ascii: "\n"))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// One row laid out in characters (a cell that is not plain ASCII).
    private static func characterLine(_ row: [String], counts: [Int], widths: [Int]) -> String {
        var line = ""
        for (index, cell) in row.enumerated() {
            let isCut = counts[index] > widths[index]
            let shown = isCut ? String(cell.prefix(max(0, widths[index] - 1))) + "…" : cell
            line += shown
            let shownCount = isCut ? max(0, widths[index] - 1) + 1 : counts[index]
            if index < row.count - 1 { line += String(repeating: " ", count: widths[index] + 2 - shownCount) }
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The characters of `text`: its bytes when they are ASCII without `\r` (`\r\n` is one
    /// character), without counting graphemes.
    private static func characterCount(_ text: String) -> Int {
        isPlainASCII(text) ? text.utf8.count : text.count
    }

    /// ASCII without `\r`: each byte a character.
    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// Column widths that fit `total` characters with two-space gaps: the last column shrinks
    /// first (to 10), then the widest of the others, one character at a time (to 8 each).
    static func fitted(_ widths: [Int], into total: Int) -> [Int] {
        var widths = widths
        let gaps = 2 * max(0, widths.count - 1)
        var excess = widths.reduce(0, +) + gaps - total
        guard excess > 0, let last = widths.indices.last else { return widths }
        let lastShrink = min(excess, max(0, widths[last] - 10))
        widths[last] -= lastShrink
        excess -= lastShrink
        while excess > 0 {
            guard let widest = widths.indices.dropLast().filter({ widths[$0] > 8 }).max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
            excess -= 1
        }
        return widths
    }
}
