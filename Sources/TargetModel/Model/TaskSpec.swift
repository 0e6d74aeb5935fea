/// What a case sends: one form per Moya `Task`.
public enum TaskSpec: Sendable, Hashable {
    /// No task: `.requestPlain`.
    case plain
    /// `data: "text"`: `.requestData`, the text as UTF-8.
    case data(Template)
    /// `dataFile: path`: `.requestData` from a file (relative to the target file's folder).
    case dataFile(path: Template)
    /// `json: <any>`: `.requestJSONEncodable`.
    case json(JSONTemplate)
    /// `parameters` + `encoding`: `.requestParameters(parameters:encoding:)`.
    case parameters([JSONTemplate.Member], encoding: ParameterEncodingSpec)
    /// `data`/`dataFile`/`json` + `query`: `.requestCompositeData(bodyData:urlParameters:)`.
    case compositeData(body: CompositeBody, query: [JSONTemplate.Member])
    /// `parameters` + body encoding + `query`: `.requestCompositeParameters`.
    case compositeParameters(body: [JSONTemplate.Member], encoding: ParameterEncodingSpec, query: [JSONTemplate.Member])
    /// `upload: path`: `.uploadFile(URL)` (relative to the target file's folder).
    case uploadFile(path: Template)
    /// `multipart: [parts]`: `.uploadMultipart`.
    case multipart([MultipartPartSpec])
    /// `multipart` + `query`: `.uploadCompositeMultipart(_:urlParameters:)`.
    case compositeMultipart([MultipartPartSpec], query: [JSONTemplate.Member])
    /// `download: path`: `.downloadDestination` writing to `path` (relative to the current folder).
    case download(destination: Template)
    /// `download` + `parameters`: `.downloadParameters(parameters:encoding:destination:)`.
    case downloadParameters([JSONTemplate.Member], encoding: ParameterEncodingSpec, destination: Template)

    /// The body of a composite-data task.
    public enum CompositeBody: Sendable, Hashable {
        /// `data`: UTF-8 text.
        case data(Template)
        /// `dataFile`: a file's bytes.
        case dataFile(path: Template)
        /// `json`: a JSON document.
        case json(JSONTemplate)
    }
}

/// `encoding:` and its options.
public enum ParameterEncodingSpec: Sendable, Hashable {
    /// `encoding: url` (Moya's `URLEncoding`).
    case url(destination: URLEncodingDestination, arrayEncoding: URLArrayEncoding, boolEncoding: URLBoolEncoding)
    /// `encoding: json` (Moya's `JSONEncoding`).
    case json(prettyPrinted: Bool)
    /// `encoding: propertyList` (Moya's `PropertyListEncoding`).
    case propertyList(format: PropertyListFormat)

    /// URL encoding with every option at its default.
    public static let urlDefault = ParameterEncodingSpec.url(
        destination: .methodDependent, arrayEncoding: .brackets, boolEncoding: .numeric)

    /// Whether the parameters end up in the body for a request with `method`.
    public func putsParametersInBody(method: String) -> Bool {
        switch self {
        case .json, .propertyList: true
        case .url(.httpBody, _, _): true
        case .url(.queryString, _, _): false
        case .url(.methodDependent, _, _): !["GET", "HEAD", "DELETE"].contains(method)
        }
    }
}

/// Where URL encoding puts the parameters.
public enum URLEncodingDestination: String, Sendable, Hashable, CaseIterable {
    /// Query for GET, HEAD and DELETE; body otherwise.
    case methodDependent
    /// Always the query string.
    case queryString
    /// Always the body (`application/x-www-form-urlencoded`).
    case httpBody
}

/// How URL encoding writes arrays.
public enum URLArrayEncoding: String, Sendable, Hashable, CaseIterable {
    /// `key[]=a&key[]=b`.
    case brackets
    /// `key=a&key=b`.
    case noBrackets
    /// `key[0]=a&key[1]=b`.
    case indexInBrackets
    /// `key=a,b`: the elements of a list of scalars joined with commas, as one parameter.
    case comma
}

/// How URL encoding writes booleans.
public enum URLBoolEncoding: String, Sendable, Hashable, CaseIterable {
    /// `1` / `0`.
    case numeric
    /// `true` / `false`.
    case literal
}

/// The property-list flavour `encoding: propertyList` writes.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// XML.
    case xml
    /// Binary.
    case binary
}

extension TaskSpec {
    /// Whether the case downloads its body to a file (`download:`, with or without parameters).
    public var isDownload: Bool {
        switch self {
        case .download, .downloadParameters: true
        default: false
        }
    }
}
