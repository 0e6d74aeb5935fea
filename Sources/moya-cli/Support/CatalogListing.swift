import MoyaKit
import TargetSpec

/// What `list` prints: aligned tables for people, a stable JSON document for scripts.
enum CatalogListing {
    static func table(of catalog: TargetCatalog) -> String {
        var rows = [["API", "CASES", "FILE", "DESCRIPTION"]]
        for entry in catalog.entries {
            rows.append([entry.name, entry.api.map { String($0.cases.count) } ?? "invalid", entry.file, entry.api?.description ?? ""])
        }
        for entry in catalog.shadowed {
            rows.append([entry.name, "-", entry.file, "shadowed by \(entry.shadowedBy ?? "an earlier file")"])
        }
        return TextTable.render(rows)
    }

    static func table(of api: APISpec) -> String {
        var rows = [["CASE", "METHOD", "PATH", "TASK", "VALUES", "DESCRIPTION"]]
        for spec in api.cases {
            rows.append([
                spec.name, spec.method, spec.path.source, spec.task.moyaName,
                spec.values.map(\.signature).joined(separator: ", "), spec.description ?? "",
            ])
        }
        return TextTable.render(rows)
    }

    static func json(of catalog: TargetCatalog) -> String {
        var apis: [JSONValue] = catalog.entries.map { entry in
            var object: [(String, JSONValue)] = [("name", .string(entry.name)), ("file", .string(entry.file))]
            object.append(("source", .string(entry.level.description)))
            object.append(("valid", .bool(entry.api != nil)))
            object.append(("cases", entry.api.map { .int($0.cases.count) } ?? .null))
            object.append(("description", entry.api?.description.map { .string($0) } ?? .null))
            object.append(("shadowedBy", .null))
            return .object(object)
        }
        apis += catalog.shadowed.map { entry in
            .object([
                ("name", .string(entry.name)), ("file", .string(entry.file)), ("source", .string(entry.level.description)),
                ("valid", .bool(entry.api != nil)), ("cases", entry.api.map { .int($0.cases.count) } ?? .null),
                ("description", entry.api?.description.map { .string($0) } ?? .null),
                ("shadowedBy", entry.shadowedBy.map { .string($0) } ?? .null),
            ])
        }
        return JSONValue.object([("apis", .array(apis))]).serializedString(options: .prettyPrinted) + "\n"
    }

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
                ("examples", .int(spec.examples.count)),
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
        if case .enumeration(let cases) = value.type {
            object.append(("cases", .array(cases.map { .string($0) })))
        }
        object.append(("required", .bool(value.isRequired)))
        object.append(("default", value.defaultValue.map { .string($0.text) } ?? .null))
        object.append(("description", value.description.map { .string($0) } ?? .null))
        return .object(object)
    }
}

/// Left-aligned columns separated by two spaces; trailing blanks trimmed.
enum TextTable {
    static func render(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var output = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 { line += String(repeating: " ", count: widths[index] + 2 - cell.count) }
            }
            while line.last == " " { line.removeLast() }
            output += line + "\n"
        }
        return output
    }
}
