import MoyaKit
import TargetSpec

/// What `list` prints: aligned tables for people, a stable JSON document for scripts.
enum CatalogListing {
    /// One row per API (invalid files say so in CASES), then one per shadowed definition.
    static func table(of catalog: TargetCatalog, width: Int? = nil) -> String {
        var rows = [["API", "CASES", "FILE", "DESCRIPTION"]]
        for entry in catalog.entries {
            rows.append([entry.name, entry.api != nil ? String(entry.caseCount) : "invalid", entry.file, entry.api?.description ?? ""])
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
        var rows = CaseRows(format: .table)
        for spec in api.cases { rows.add(spec) }
        return String(decoding: rows.rendered(api: api, width: width), as: UTF8.self)
    }

    /// What `list API` prints of each case, made as each case is loaded (the API then keeps no
    /// case: see `TargetFileLoader.load(path:file:limits:fileRoot:eachCase:)`), so a large file's
    /// cases are never all held as models.
    struct CaseRows {
        let format: ListFormat
        /// Table rows without the FILES cell, and each row's FILES cell (shown when some case has one).
        private var cells: [[String]] = []
        private var files: [String] = []
        private var showsFiles = false
        private var objects: [JSONValue] = []

        init(format: ListFormat) {
            self.format = format
        }

        mutating func add(_ spec: CaseSpec) {
            switch format {
            case .table:
                let summary = spec.filesSummary
                showsFiles = showsFiles || summary != nil
                files.append(summary ?? "")
                cells.append([
                    spec.name, spec.method, spec.path.source, spec.task.moyaName,
                    spec.values.map(\.signature).joined(separator: ", "), spec.description ?? "",
                ])
            case .json:
                objects.append(CatalogListing.caseJSON(spec))
            }
        }

        /// The table or the JSON document of `api`, with the cases added, as UTF-8. Consumes
        /// the rows, so the table is laid out without a copy of them.
        consuming func rendered(api: APISpec, width: Int?) -> [UInt8] {
            switch format {
            case .json:
                return Array(CatalogListing.json(of: api, cases: objects).utf8)
            case .table:
                let header = ["CASE", "METHOD", "PATH", "TASK", "VALUES"] + (showsFiles ? ["FILES"] : []) + ["DESCRIPTION"]
                var rows = [header]
                rows.reserveCapacity(cells.count + 1)
                let filesColumn = 5
                for (index, row) in cells.enumerated() {
                    rows.append(showsFiles ? Array(row[..<filesColumn]) + [files[index]] + row[filesColumn...] : row)
                }
                cells = []
                return TextTable.renderedBytes(rows, width: width)
            }
        }
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
            ("cases", entry.api != nil ? .int(entry.caseCount) : .null),
            ("description", entry.api?.description.map { .string($0) } ?? .null),
            ("shadowedBy", entry.shadowedBy.map { .string($0) } ?? .null),
        ])
    }

    /// One API: its file, base URL, environments and every case with its values and samples.
    static func json(of api: APISpec) -> String {
        json(of: api, cases: api.cases.map(caseJSON))
    }

    /// One case of `list API --format json`.
    static func caseJSON(_ spec: CaseSpec) -> JSONValue {
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

    /// The API's document with `cases`, made from its cases.
    static func json(of api: APISpec, cases: [JSONValue]) -> String {
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
        String(decoding: renderedBytes(rows, width: width), as: UTF8.self)
    }

    /// ``render(_:width:)`` as UTF-8. A case list has thousands of rows: cells are escaped in
    /// place (only those with something to escape) and counted in each pass rather than kept.
    static func renderedBytes(_ rows: consuming [[String]], width: Int? = nil) -> [UInt8] {
        var rows = rows
        // Whether each row is plain ASCII (laid out in bytes): a printable ASCII cell is; an
        // escaped one may not be.
        var isASCIIRow = [Bool](repeating: true, count: rows.count)
        for row in rows.indices {
            for column in rows[row].indices where !isPrintableASCII(rows[row][column]) {
                rows[row][column] = DisplayText.escaped(rows[row][column])
                if !isPlainASCII(rows[row][column]) { isASCIIRow[row] = false }
            }
        }
        guard let columns = rows.map({ $0.count }).max() else { return [] }  // a closure: a key path is applied per row at run time
        var widths = Array(repeating: 0, count: columns)
        for (rowIndex, row) in rows.enumerated() {
            for (index, cell) in row.enumerated() {
                widths[index] = max(widths[index], isASCIIRow[rowIndex] ? cell.utf8.count : characterCount(cell))
            }
        }
        if let width { widths = fitted(widths, into: width) }
        var output: [UInt8] = []
        output.reserveCapacity(rows.count * (widths.reduce(0, +) + 2 * columns + 1))
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: (widths.max() ?? 0) + 2)
        for (rowIndex, row) in rows.enumerated() {
            // A row of ASCII cells (nearly all) is laid out in bytes; any other, in characters.
            guard isASCIIRow[rowIndex] else {
                output += (characterLine(row, counts: row.map(characterCount), widths: widths) + "\n").utf8
                continue
            }
            let start = output.count
            for index in row.indices {
                // Read in place: `withUTF8` on a cell of `row` would copy the row (it is mutating).
                let cell = row[index].utf8
                let count = cell.count
                let isCut = count > widths[index]
                let shownCount = isCut ? max(0, widths[index] - 1) + 1 : count
                if isCut {
                    output.append(contentsOf: cell.prefix(max(0, widths[index] - 1)))
                    output += "…".utf8
                } else {
                    output.append(contentsOf: cell)
                }
                if index < row.count - 1 {
                    output.append(contentsOf: spaces[..<(widths[index] + 2 - shownCount)])
                }
            }
            while output.count > start && output[output.count - 1] == UInt8(ascii: " ") { output.removeLast() }
            output.append(UInt8(ascii: "\n"))
        }
        return output
    }

    /// Printable ASCII: nothing to escape.
    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
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
