import OrderedJSON
import TargetModel

/// `serve`'s checks of a request against its case's declaration, before any sample is chosen: the
/// credential its auth asks for (401), and a body of the kind the case sends — JSON that parses
/// (400), holding each required value, of its type, within its enum (422). Each refusal is an RFC
/// 9457 problem document naming every value at fault. `--no-auth` and `--no-validate` turn them off.
enum RequestCheck {
    /// One value at fault: the case's value, where the request carries it, and why.
    struct Fault {
        var value: String
        /// `("pointer", "/title")` in a JSON body, `("field", "title")` in a form or multipart one.
        var place: (kind: String, name: String)
        var reason: String
    }

    /// 401 when `served`'s auth asks for a credential the request does not carry; `nil` otherwise.
    static func credentialProblem(of served: ServedCase, request: ServeRequest) -> ServeResponse? {
        guard let credential = served.credential, !credential.isCarried(by: request) else { return nil }
        var response = problem(
            401, detail: "\(served.qualifiedName) needs \(credential.description)", caseName: served.qualifiedName)
        response.headers.append(("WWW-Authenticate", credential.challenge(realm: served.builder.api.name)))
        return response
    }

    /// 400 or 422 when the request's body is not what `served` declares; `nil` when it is, or the
    /// case sends no body the server can read back.
    static func bodyProblem(of served: ServedCase, request: ServeRequest) -> ServeResponse? {
        let sources = served.sources
        let faults: [Fault]
        switch sources.bodyKind {
        case .json:
            var members: [(String, JSONValue)] = []
            if request.body.contains(where: { !Self.isJSONSpace($0) }) {
                let document: JSONValue
                do {
                    document = try JSONValue(parsing: request.body)
                } catch {
                    return problem(
                        400, detail: "the body is not JSON: \(error.description)", caseName: served.qualifiedName)
                }
                guard case .object(let found) = document else {
                    guard !sources.body.isEmpty else { return nil }
                    return problem(
                        422, detail: "the body must be a JSON object", caseName: served.qualifiedName,
                        faults: [Fault(value: "", place: ("pointer", ""), reason: "the body is not a JSON object")])
                }
                members = found
            }
            faults = sources.body.compactMap { source in
                jsonFault(source, members: members, spec: served.spec.values.first { $0.name == source.valueName })
            }
        case .form:
            let text = Substring(decoding: request.body, as: UTF8.self)
            let items = ServeRequest.formItems(text)
            if items.count != text.split(separator: "&").count {
                return problem(
                    400, detail: "the form body's percent-escapes are broken", caseName: served.qualifiedName)
            }
            faults = wordFaults(served, items: items)
        case .multipart:
            guard let parts = MultipartBody(request: request) else {
                return problem(
                    400,
                    detail: "the body is not multipart/form-data with the boundary its Content-Type names",
                    caseName: served.qualifiedName)
            }
            faults = wordFaults(served, items: parts.fields)
        case .none, .other:
            return nil
        }
        guard !faults.isEmpty else { return nil }
        let count = faults.count == 1 ? "1 value" : "\(faults.count) values"
        return problem(
            422, detail: "\(count) of the body \(faults.count == 1 ? "is" : "are") at fault",
            caseName: served.qualifiedName, faults: faults)
    }

    /// The fault of a form's or multipart body's words for each value the case reads there.
    private static func wordFaults(_ served: ServedCase, items: [(name: String, value: String)]) -> [Fault] {
        served.sources.body.compactMap { source -> Fault? in
            guard let spec = served.spec.values.first(where: { $0.name == source.valueName }), spec.type != .file
            else { return nil }
            var words = items.filter { ServedCase.isParameter($0.name, named: source.key) }.map(\.value)
            let place = (kind: "field", name: source.key)
            if words.isEmpty {
                return spec.isRequired ? Fault(value: spec.name, place: place, reason: missing(spec)) : nil
            }
            if served.sources.boolsAreNumeric, spec.type == .bool || spec.type.elementType == .bool {
                words = words.map { $0 == "1" ? "true" : $0 == "0" ? "false" : $0 }
            }
            let binder = ArgumentBinder(caseName: served.spec.name, values: [spec])
            guard let error = binder.bindReportingAll(namedWords: [spec.name: words]).errors.first else { return nil }
            return Fault(value: spec.name, place: place, reason: error.description)
        }
    }

    /// What is wrong with the JSON member carrying `spec`'s value, if anything.
    private static func jsonFault(_ source: ValueSources.Source, members: [(String, JSONValue)], spec: ValueSpec?)
        -> Fault?
    {
        guard let spec, spec.type != .file else { return nil }
        let place = (kind: "pointer", name: "/" + pointerEscaped(source.key))
        guard let member = members.last(where: { $0.0 == source.key })?.1 else {
            return spec.isRequired ? Fault(value: spec.name, place: place, reason: missing(spec)) : nil
        }
        if case .null = member, !spec.isRequired { return nil }
        guard let reason = mismatch(member, type: spec.type, allowed: spec.allowedCases, name: spec.name) else {
            return nil
        }
        return Fault(value: spec.name, place: place, reason: reason)
    }

    /// Why `value` is not a JSON value of `type` (within `allowed`), or `nil`.
    private static func mismatch(_ value: JSONValue, type: ValueType, allowed: [String]?, name: String) -> String? {
        let fits: Bool
        switch (type, value) {
        case (.string, .string), (.int, .int), (.double, .int), (.double, .number), (.bool, .bool): fits = true
        case (.enumeration(let cases), .string(let text)):
            return cases.contains(text)
                ? nil : "'\(text)' is not one of \(cases.joined(separator: ", ")) for value '\(name)'"
        case (.list(let element), .array(let elements)):
            return elements.lazy.compactMap { mismatch($0, type: element, allowed: allowed, name: name) }.first
        default: fits = false
        }
        guard fits else { return "\(value.serializedString()) is not \(article(type)) for value '\(name)'" }
        if let allowed, !allowed.contains(value.serializedString()) {
            return "\(value.serializedString()) is not one of \(allowed.joined(separator: ", ")) for value '\(name)'"
        }
        return nil
    }

    private static func article(_ type: ValueType) -> String {
        switch type {
        case .int: "an int"
        case .enumeration(let cases): "one of " + cases.joined(separator: ", ")
        case .list(let element): "a list of \(element.name)"
        default: "a \(type.name)"
        }
    }

    private static func missing(_ spec: ValueSpec) -> String {
        "missing required value '\(spec.name)' (\(spec.type.name))"
    }

    /// `a/b~c` as a JSON pointer's segment (RFC 6901): `a~1b~0c`.
    private static func pointerEscaped(_ key: String) -> String {
        var escaped = ""
        for character in key {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// An RFC 9457 problem document (`application/problem+json`) with `status`, its reason phrase
    /// as the title, `detail`, the case and the values at fault.
    static func problem(_ status: Int, detail: String, caseName: String, faults: [Fault] = []) -> ServeResponse {
        var fields: [(String, JSONValue)] = [
            ("type", .string("about:blank")), ("title", .string(title(of: status))), ("status", .int(status)),
            ("detail", .string(detail)), ("case", .string(caseName))
        ]
        if !faults.isEmpty {
            fields.append(
                (
                    "errors",
                    .array(
                        faults.map { fault in
                            var entry: [(String, JSONValue)] = []
                            if !fault.value.isEmpty { entry.append(("value", .string(fault.value))) }
                            entry.append((fault.place.kind, .string(fault.place.name)))
                            entry.append(("detail", .string(fault.reason)))
                            return .object(entry)
                        })
                ))
        }
        return ServeResponse(
            status: status, headers: [("Content-Type", "application/problem+json")],
            body: JSONValue.object(fields).serializedBytes() + [UInt8(ascii: "\n")])
    }

    private static func title(of status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 422: "Unprocessable Content"
        default: "Error"
        }
    }
}
