import MoyaKit
import OrderedJSON
import TargetModel
import TargetSpec

/// What `list` prints: aligned tables for people, a stable JSON document for scripts.
enum CatalogListing {
    /// One row per API (invalid files say so in CASES), then one per shadowed definition.
    /// TRUST says whether the file is trusted; ENVIRONMENT (the variables it reads) and COMMAND
    /// (its token command) are shown when some API has them.
    static func table(of catalog: TargetCatalog, environment: [String: String], width: Int? = nil) -> String {
        let access = catalog.entries.map { entry in entry.api.map { APIAccess($0, environment: environment) } }
        let showsVariables = access.contains { !($0?.variables.isEmpty ?? true) }
        let showsCommands = access.contains { !($0?.commands.isEmpty ?? true) }
        func row(_ cells: [String], _ access: APIAccess?) -> [String] {
            var row = Array(cells[0..<2]) + [access?.trustCell ?? "-"]
            if showsVariables { row.append(access?.variablesCell ?? "") }
            if showsCommands { row.append(access?.commandCell ?? "") }
            return row + Array(cells[2...])
        }
        var rows = [row(["API", "CASES", "FILE", "DESCRIPTION"], nil)]
        rows[0][2] = "TRUST"
        if showsVariables { rows[0][3] = "ENVIRONMENT" }
        if showsCommands { rows[0][showsVariables ? 4 : 3] = "COMMAND" }
        for (entry, access) in zip(catalog.entries, access) {
            rows.append(
                row(
                    [
                        entry.name, entry.api != nil ? String(entry.caseCount) : "invalid", entry.file,
                        entry.api?.description ?? ""
                    ], access))
        }
        for entry in catalog.shadowed {
            rows.append(row([entry.name, "-", entry.file, shadowNote(entry, in: catalog)], nil))
        }
        // On a narrow terminal the description wraps or goes first; variables and commands wrap;
        // the name and the file (to copy) stay whole.
        var fits: [ColumnFit] = [.whole, .whole, .whole]
        if showsVariables { fits.append(.wraps(minimum: 12, at: ", ")) }
        if showsCommands { fits.append(.wraps(minimum: 12)) }
        fits += [.whole, ColumnFit.wraps(minimum: 16).dropped(atRank: 1)]
        return TextTable.render(rows, width: width, fits: fits)
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
        /// The header and a row per case, FILES included (shown when some case has one), as
        /// escaped bytes in one buffer, not arrays of strings (an allocation per cell; budget
        /// "list API (10,000 cases)", bench/budgets.json).
        private var cells = TableCells()
        private var showsFiles = false
        private var objects: [JSONValue] = []
        private static let header = ["CASE", "METHOD", "PATH", "TASK", "VALUES", "FILES", "DESCRIPTION"]
        private static let filesColumn = 5
        /// On a narrow terminal CASE and VALUES (what a call needs) stay whole, VALUES wrapping
        /// between values; TASK goes first, then DESCRIPTION and FILES wrap or go; PATH wraps.
        private static let fits: [ColumnFit] = [
            .whole, .whole, .wraps(minimum: 16), ColumnFit.whole.dropped(atRank: 1),
            ColumnFit.wraps(minimum: 16, at: ", ").keepingItemsWhole(),
            ColumnFit.wraps(minimum: 12, at: "; ").dropped(atRank: 3), ColumnFit.wraps(minimum: 16).dropped(atRank: 2)
        ]

        init(format: ListFormat) {
            self.format = format
            if format == .table { cells.appendRow(Self.header) }
        }

        mutating func add(_ spec: CaseSpec) {
            switch format {
            case .table:
                let summary = spec.filesSummary
                showsFiles = showsFiles || summary != nil
                cells.append(spec.name)
                cells.append(spec.method)
                cells.append(spec.displayedPath)
                cells.append(spec.task.moyaName)
                cells.append(spec.values.map(\.signature).joined(separator: ", "))
                cells.append(summary ?? "")
                let expectations = spec.expectationCount
                cells.append(
                    expectations == 0
                        ? spec.description ?? ""
                        : (spec.description.map { $0 + " " } ?? "")
                            + "[expects \(expectations) thing\(expectations == 1 ? "" : "s")]")
                cells.endRow()
            case .json:
                objects.append(CatalogListing.caseJSON(spec))
            }
        }

        /// The table or the JSON document of `api`, with the cases added, as UTF-8.
        consuming func rendered(api: APISpec, width: Int?) -> [UInt8] {
            var output: [UInt8] = []
            write(api: api, width: width) { output += $0 }
            return output
        }

        /// ``rendered(api:width:)`` handed to `sink` a part at a time: a table of thousands of
        /// rows is not held a second time as text.
        func write(api: APISpec, width: Int?, to sink: ([UInt8]) -> Void) {
            switch format {
            case .json:
                sink(Array(CatalogListing.json(of: api, cases: objects).utf8))
            case .table:
                let columns = Array(Self.header.indices).filter { showsFiles || $0 != Self.filesColumn }
                TextTable.write(cells, columns: columns, width: width, fits: columns.map { Self.fits[$0] }, to: sink)
            }
        }
    }

    /// `{"apis": [...]}`: the winners in discovery order, then the shadowed definitions.
    static func json(of catalog: TargetCatalog, environment: [String: String]) -> String {
        let apis = (catalog.entries + catalog.shadowed).map { entry in
            entryJSON(
                entry, valid: isValid(entry, in: catalog),
                access: entry.api.map { APIAccess($0, environment: environment) })
        }
        return JSONValue.object([("apis", .array(apis))]).serializedString(options: .prettyPrinted) + "\n"
    }

    private static func entryJSON(_ entry: TargetCatalog.Entry, valid: Bool, access: APIAccess?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(entry.name)),
            ("file", .string(entry.file)),
            ("source", .string(entry.source)),
            ("valid", .bool(valid)),
            ("cases", entry.api != nil ? .int(entry.caseCount) : .null),
            ("description", entry.api?.description.map { .string($0) } ?? .null),
            ("shadowedBy", entry.shadowedBy.map { .string($0) } ?? .null)
        ]
        members += accessJSON(access)
        return .object(members)
    }

    /// `trusted`, `environment` (`{"name", "state"}` each) and `commands`; null without an API.
    static func accessJSON(_ access: APIAccess?) -> [(String, JSONValue)] {
        guard let access else { return [("trusted", .null), ("environment", .null), ("commands", .null)] }
        return [
            ("trusted", .bool(access.isTrusted)),
            (
                "environment",
                .array(access.variables.map { .object([("name", .string($0.name)), ("state", .string($0.state))]) })
            ),
            ("commands", .array(access.commands.map(JSONValue.string)))
        ]
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
            ("baseURL", spec.baseURL.map { .string($0.source) } ?? .null),
            ("task", .string(spec.task.moyaName)),
            ("description", spec.description.map { .string($0) } ?? .null),
            ("values", .array(spec.values.map(valueJSON))),
            ("samples", .array(spec.samples.map { .string($0.name) })),
            ("examples", .int(spec.exampleSteps.count)),
            ("expect", .array((spec.expectation?.summaryLines ?? []).map { .string($0) })),
            (
                "exampleExpect",
                .object(
                    spec.exampleSteps.compactMap { step in
                        step.expectation.map { ("\(step.number)", .array($0.summaryLines.map { .string($0) })) }
                    })
            ),
            ("reads", .array(spec.filesRead.map { .string($0) })),
            ("writes", .array(spec.filesWritten.map { .string($0) }))
        ])
    }

    /// The API's document with `cases`, made from its cases.
    static func json(of api: APISpec, cases: [JSONValue]) -> String {
        var fields: [(String, JSONValue)] = [
            ("name", .string(api.name)),
            ("file", .string(api.file)),
            ("baseURL", .string(api.baseURL.source)),
            ("description", api.description.map { .string($0) } ?? .null),
            ("environments", .array(api.environments.map { .string($0.name) }))
        ]
        // The public keys pinned (`tls:`), the API's and each environment's, when there are any.
        let environmentPins = api.environments.compactMap { environment in
            environment.pinnedPublicKeys.map { (environment.name, JSONValue.array($0.map { .string($0) })) }
        }
        if !api.pinnedPublicKeys.isEmpty || !environmentPins.isEmpty {
            fields.append(("pinnedPublicKeys", .array(api.pinnedPublicKeys.map { .string($0) })))
            if !environmentPins.isEmpty { fields.append(("environmentPinnedPublicKeys", .object(environmentPins))) }
        }
        fields.append(("cases", .array(cases)))
        let document: JSONValue = .object(fields)
        return document.serializedString(options: .prettyPrinted) + "\n"
    }

    private static func valueJSON(_ value: ValueSpec) -> JSONValue {
        var object: [(String, JSONValue)] = [("name", .string(value.name)), ("type", .string(value.type.name))]
        if case .list(let element) = value.type {
            object.append(("elements", .string(element.name)))
        }
        if case .enumeration(let cases) = value.type.elementType ?? value.type {
            object.append(("cases", .array(cases.map { .string($0) })))
        } else if let cases = value.allowedCases {
            object.append(("cases", .array(cases.map { .string($0) })))
        }
        object.append(("required", .bool(value.isRequired)))
        object.append(("optional", .bool(value.isOptional)))
        object.append(("default", value.defaultValue.map(\.json) ?? .null))
        object.append(("description", value.description.map { .string($0) } ?? .null))
        return .object(object)
    }
}

extension CaseSpec {
    /// The path as `list` and case help show it: after the case's own base URL when it has one,
    /// so a case sent elsewhere than the API's base URL says so.
    var displayedPath: String {
        guard let baseURL = self.baseURL else { return self.path.source }
        return baseURL.source + self.path.source
    }
}
