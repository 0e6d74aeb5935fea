import TargetModel

/// A case being built from an operation.
struct CaseDraft {
    var values: [ValueDraft] = []
    var takenValueNames = Set<String>()
    /// Value names by the spec's path parameter names.
    var pathValues: [String: String] = [:]
    /// The path's value names, in the order the path names them.
    var pathOrder: [String] = []
    var headers: [YAMLText.Entry] = []
    /// Query parameters: the spec's name, then the template (`"{per_page}"`).
    var query: [YAMLText.Entry] = []
    var arrayEncoding: String?
    /// The task's body keys (`json`, `parameters` + options, `multipart`, `data`, `dataFile`).
    var body: [YAMLText.Entry] = []
    /// Whether the body is url-encoded parameters (which then carry `encoding` and options).
    var bodyIsForm = false
    var auth: String?

    /// The values in the order the command line takes them: the path's in path order, then the
    /// other required ones, then the optional ones, each group in the spec's order. Positional
    /// words bind in this order, so no optional value stands before a required one.
    mutating func orderValuesForCommandLine() {
        let pathRanks = Dictionary(pathOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let ranked = values.enumerated().map { index, value -> (group: Int, rank: Int, value: ValueDraft) in
            if let rank = pathRanks[value.name] { return (0, rank, value) }
            return (value.optional || value.defaultValue != nil ? 2 : 1, index, value)
        }
        values = ranked.sorted { ($0.group, $0.rank) < ($1.group, $1.rank) }.map(\.value)
    }

    /// A value name for `name` not yet taken in this case.
    mutating func newValueName(_ name: String) -> String {
        Naming.unique(Naming.valueName(name), in: &takenValueNames)
    }

    /// Whether a query parameter is a bool value (or a list of them).
    var queryHasBool: Bool {
        let bools = Set(values.filter { $0.kind == .bool || $0.kind == .list(.bool) }.map { "{\($0.name)}" })
        return query.contains {
            if case .string(let template) = $0.value { bools.contains(template) } else { false }
        }
    }

    /// The `task` map: the body with the query as `query:`, or the query alone as url-encoded
    /// parameters; `nil` when nothing is sent.
    func task(method: String) -> YAMLText? {
        var entries = body
        if body.isEmpty {
            guard !query.isEmpty else { return nil }
            entries.append(YAMLText.Entry("parameters", .map(query)))
            entries.append(YAMLText.Entry("encoding", .string("url")))
            if !["GET", "HEAD", "DELETE"].contains(method) {
                entries.append(YAMLText.Entry("destination", .string("queryString")))
            }
            if let arrayEncoding { entries.append(YAMLText.Entry("arrayEncoding", .string(arrayEncoding))) }
            entries.append(YAMLText.Entry("boolEncoding", .string("literal")))
            return .map(entries)
        }
        if bodyIsForm {
            if let arrayEncoding { entries.append(YAMLText.Entry("arrayEncoding", .string(arrayEncoding))) }
            entries.append(YAMLText.Entry("boolEncoding", .string("literal")))
        } else if queryHasBool {
            // The query of a body's task sends bools as OpenAPI does only when told.
            entries.append(YAMLText.Entry("boolEncoding", .string("literal")))
        }
        if !query.isEmpty { entries.append(YAMLText.Entry("query", .map(query))) }
        return .map(entries)
    }
}
