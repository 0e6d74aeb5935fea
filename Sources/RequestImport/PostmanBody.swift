import OrderedJSON
import TargetModel

/// A Postman request `body` as the entries of a case's `task`.
enum PostmanBody {
    /// Whether `body` in `mode` sends nothing: empty raw text, no enabled field, no file.
    static func isEmpty(_ body: JSONValue, mode: String) -> Bool {
        switch mode {
        case "raw": return (body["raw"]?.stringValue ?? "").allSatisfy(\.isWhitespace)
        case "urlencoded", "formdata":
            return (body[mode]?.arrayValue ?? []).allSatisfy {
                $0["disabled"]?.boolValue == true
                    || ($0["key"]?.stringValue ?? "").isEmpty && ($0["value"]?.stringValue ?? "").isEmpty
                        && $0["src"] == nil
            }
        case "file": return (body["file"]?["src"]?.stringValue ?? "").isEmpty
        case "graphql": return (body["graphql"]?["query"]?.stringValue ?? "").allSatisfy(\.isWhitespace)
        default: return false
        }
    }

    static func task(
        _ body: JSONValue?, at path: String, method: String, contentType: String?, template: inout PostmanTemplate,
        notes: inout [String]
    ) throws(RequestImportError) -> [YAMLText.Entry] {
        guard let body, body != .null, let mode = body["mode"]?.stringValue, body["disabled"]?.boolValue != true else {
            return []
        }
        if MethodSemantics.carriesNoBody(method) {
            // Postman's editor gives many a GET an empty body: only one that says something is noted.
            if !isEmpty(body, mode: mode) {
                notes.append("the \(method) request's body is left out: a case cannot send one")
            }
            return []
        }
        func fields(_ key: String) throws(RequestImportError) -> [JSONValue] {
            guard let list = body[key]?.arrayValue else { throw RequestImportError("not a list (at \(path).\(key))") }
            return list.filter { $0["disabled"]?.boolValue != true }
        }
        switch mode {
        case "raw":
            let raw = body["raw"]?.stringValue ?? ""
            let language = body["options"]?["raw"]?["language"]?.stringValue
            if language == "json" || (contentType ?? "").lowercased().contains("json"),
                let value = try? JSONValue(parsing: Array(raw.utf8))
            {
                return [YAMLText.Entry("json", yaml(value, &template))]
            }
            return [YAMLText.Entry("data", .string(template.placeholding(raw)))]
        case "urlencoded":
            let (pairs, repeats) = template.parameters(
                try fields("urlencoded").map {
                    (name: $0["key"]?.stringValue ?? "", value: $0["value"]?.stringValue ?? "")
                }
                .filter { !($0.name.isEmpty && $0.value.isEmpty) })
            var task = [
                YAMLText.Entry("parameters", .map(pairs)), YAMLText.Entry("encoding", .string("url")),
                YAMLText.Entry("destination", .string("httpBody"))
            ]
            if repeats { task.append(YAMLText.Entry("arrayEncoding", .string("noBrackets"))) }
            return task
        case "formdata":
            var parts: [YAMLText] = []
            for field in try fields("formdata") {
                let name = field["key"]?.stringValue ?? ""
                guard !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                    throw RequestImportError(
                        "the part name '\(name.prefix(100))' holds control characters (at \(path).formdata)")
                }
                var members = [YAMLText.Entry("name", .string(NewCase.literal(name)))]
                if field["type"]?.stringValue == "file" {
                    members.append(
                        YAMLText.Entry("file", .string("{\(template.value(named: name, default: nil, type: "file"))}")))
                } else {
                    members.append(
                        YAMLText.Entry(
                            "value",
                            .string(
                                template.credential(named: name, literal: field["value"]?.stringValue ?? "")
                                    ?? template.placeholding(field["value"]?.stringValue ?? ""))))
                }
                if let type = field["contentType"]?.stringValue, !type.isEmpty {
                    guard !type.utf8.contains(where: { $0 < 0x20 }) else {
                        throw RequestImportError(
                            "the part \(name)'s type holds control characters (at \(path).formdata)")
                    }
                    members.append(YAMLText.Entry("mimeType", .string(NewCase.literal(type))))
                }
                parts.append(.map(members))
            }
            guard !parts.isEmpty else {
                notes.append("the form has no enabled fields: the case sends no body")
                return []
            }
            return [YAMLText.Entry("multipart", .list(parts))]
        case "file":
            return [YAMLText.Entry("upload", .string("{\(template.value(named: "file", default: nil, type: "file"))}"))]
        case "graphql":
            let query = body["graphql"]?["query"]?.stringValue ?? ""
            var members = [YAMLText.Entry("query", .string(NewCase.literal(query)))]
            if let text = body["graphql"]?["variables"]?.stringValue, !text.isEmpty {
                guard let value = try? JSONValue(parsing: Array(text.utf8)) else {
                    throw RequestImportError("the GraphQL variables are not JSON (at \(path).graphql.variables)")
                }
                members.append(YAMLText.Entry("variables", yaml(value, &template)))
            }
            return [YAMLText.Entry("json", .map(members))]
        default:
            notes.append("the body mode '\(mode)' is not mapped: the case sends no body")
            return []
        }
    }

    /// A JSON value as YAML, each string's `{{references}}` a placeholder.
    static func yaml(_ value: JSONValue, _ template: inout PostmanTemplate) -> YAMLText {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .int(let int): return .int(int)
        case .number(let number): return .number(number.description)
        case .string(let string): return .string(template.placeholding(string))
        case .array(let items):
            var list: [YAMLText] = []
            for item in items { list.append(yaml(item, &template)) }
            return .list(list)
        case .object(let members):
            var entries: [YAMLText.Entry] = []
            for (key, member) in members {
                if case .string(let text) = member, let secret = template.credential(named: key, literal: text) {
                    entries.append(YAMLText.Entry(key, .string(secret)))
                } else {
                    entries.append(YAMLText.Entry(key, yaml(member, &template)))
                }
            }
            return .map(entries)
        }
    }
}
