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
        let typeText: String
        if case .enumeration(let cases) = type {
            typeText = cases.joined(separator: "|")
        } else {
            typeText = type.name
        }
        var text = "\(name)\(isOptional ? "?" : ""): \(typeText)"
        if let defaultValue { text += " = " + (defaultValue.text.isEmpty ? "\"\"" : defaultValue.text) }
        return text
    }
}
