import TargetModel
import TextSafety

extension CaseExpressions {
    /// The case's headers as `TargetBuilder` merges them: the API's, the default environment's,
    /// the case's (a later one replaces an earlier one of the same name, compared without case;
    /// a lone optional value not given leaves its header out, an earlier one of that name then
    /// stays), `Content-Type: application/json` for a `json` body, and an API key header.
    mutating func headers(api: APISpec, environment: EnvironmentSpec?, spec: CaseSpec) -> SwiftExpression {
        var entries: [(name: String, value: String, isOptional: Bool)] = []
        for header in api.headers + (environment?.headers ?? []) + spec.headers {
            let earlier = entries.firstIndex { $0.name.lowercased() == header.name.lowercased() }
            var value: String
            var isOptional = false
            if let name = header.value.soloPlaceholder, let lone = self.value(named: name), self.isOptional(lone) {
                value = mapping(lone) { $0.text(of: lone) }
                isOptional = true
                if let earlier {
                    value = "(" + value + " ?? " + entries[earlier].value + ")"
                    isOptional = entries[earlier].isOptional
                }
            } else {
                value = string(header.value).flat
            }
            if let earlier { entries.remove(at: earlier) }
            entries.append((header.name, value, isOptional))
        }
        if spec.task.sendsJSON, !entries.contains(where: { $0.name.lowercased() == "content-type" }) {
            entries.append(("Content-Type", SwiftLiteral.quoted("application/json"), false))
        }
        if case .apiKey(.header, let name, let key)? = api.auth(for: spec.auth) {
            entries.removeAll { $0.name.lowercased() == name.lowercased() }
            entries.append((name, string(key).flat, false))
        }
        if entries.isEmpty { return .atom("nil") }
        let pairs = entries.map { SwiftExpression.atom(SwiftLiteral.quoted($0.name) + ": " + $0.value) }
        if entries.contains(where: \.isOptional) {
            return .prefixed(
                "(", .collection(open: "[", pairs, close: "] as [String: String?]).compactMapValues { $0 }"))
        }
        return .collection(open: "[", pairs, close: "]")
    }

    /// The body of a sample (`sampleData` for the default one).
    mutating func sampleData(_ sample: SampleSpec?) -> SwiftExpression {
        guard case .response(_, _, let body)? = sample?.outcome else { return .atom("Data()") }
        switch body {
        case .empty: return .atom("Data()")
        case .text(let template): return utf8Data(template)
        case .json(let template): return jsonData(template)
        case .file(let path): return .call("GeneratedFile.contents", [fileURL(path)])
        }
    }
}

extension TaskSpec {
    /// Whether the body is a `json:` document, for which moya-cli adds `Content-Type: application/json`.
    var sendsJSON: Bool {
        switch self {
        case .json, .compositeData(.json, _): true
        default: false
        }
    }
}
