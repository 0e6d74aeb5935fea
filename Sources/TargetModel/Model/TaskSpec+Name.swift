extension TaskSpec {
    /// The name of the Moya `Task` case this task becomes, e.g. `requestParameters`.
    public var moyaName: String {
        switch self {
        case .plain: "requestPlain"
        case .data, .dataFile: "requestData"
        case .json: "requestJSONEncodable"
        case .parameters: "requestParameters"
        case .compositeData: "requestCompositeData"
        case .compositeParameters: "requestCompositeParameters"
        case .uploadFile: "uploadFile"
        case .multipart: "uploadMultipart"
        case .compositeMultipart: "uploadCompositeMultipart"
        case .download: "downloadDestination"
        case .downloadParameters: "downloadParameters"
        }
    }
}

extension ValueSpec {
    /// `name: type`, with `= default` for a value with a default and `name?: type` for an optional
    /// one: how `list` and help show a value.
    public var signature: String {
        var text = "\(name)\(isOptional ? "?" : ""): \(shortTypeName)"
        if let defaultValue {
            let defaultText =
                if case .list(let elements) = defaultValue { elements.map(\.text).joined(separator: ",") } else {
                    defaultValue.text
                }
            text += " = " + (defaultText.isEmpty ? "\"\"" : defaultText)
        }
        return text
    }

    /// The type as `list` and help show it: `int`, `a|b`, and a typed enum's cases (`1|2|3`).
    public var shortTypeName: String {
        allowedCases.map { $0.joined(separator: "|") } ?? type.shortName
    }
}

extension ValueType {
    /// How `list` and help write the type: `int`, `open|closed`, `[string]`, `[a|b]`.
    public var shortName: String {
        switch self {
        case .enumeration(let cases): cases.joined(separator: "|")
        case .list(let element): "[" + element.shortName + "]"
        default: name
        }
    }
}
