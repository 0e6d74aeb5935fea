import TargetModel

/// Where a case's request carries each of its values, read back from the case's declarations:
/// the query parameters, form or JSON body members and headers whose whole value is one
/// placeholder (`q: "{q}"`). A value written into a longer text (`"Hello, {name}!"`) cannot be
/// read back, and is not.
struct ValueSources: Sendable, Hashable {
    /// What kind of body the case sends.
    enum BodyKind: Sendable, Hashable {
        case none
        case form
        case json
        case multipart
        case other
    }

    /// A parameter (query item, form field, JSON member) or header that carries a value.
    struct Source: Sendable, Hashable {
        /// The parameter's key or the header's name.
        var key: String
        var valueName: String
    }

    var query: [Source] = []
    /// Every query parameter the case sends, values or not: what tells it from a case of the
    /// same route that sends others.
    var queryKeys: [String] = []
    var body: [Source] = []
    var headers: [Source] = []
    var bodyKind: BodyKind = .none
    /// `boolEncoding: numeric` (the default): a bool is sent as `1` or `0`.
    var boolsAreNumeric = true

    init(_ spec: CaseSpec) {
        for header in spec.headers {
            if let name = header.value.soloPlaceholder { headers.append(Source(key: header.name, valueName: name)) }
        }
        switch spec.task {
        case .plain, .download:
            break
        case .data, .dataFile, .uploadFile:
            bodyKind = .other
        case .json(let template):
            bodyKind = .json
            body = Self.sources(Self.members(of: template))
        case .parameters(let members, let encoding), .downloadParameters(let members, let encoding, _):
            if encoding.putsParametersInBody(method: spec.method) {
                bodyKind = Self.kind(of: encoding)
                body = Self.sources(members)
            } else {
                query = Self.sources(members)
                queryKeys = members.map(\.key)
            }
            if case .url(_, _, let bools) = encoding { boolsAreNumeric = bools == .numeric }
        case .compositeData(let body, let query):
            self.query = Self.sources(query)
            queryKeys = query.map(\.key)
            if case .json(let template) = body {
                bodyKind = .json
                self.body = Self.sources(Self.members(of: template))
            } else {
                bodyKind = .other
            }
        case .compositeParameters(let body, let encoding, let query):
            self.query = Self.sources(query)
            queryKeys = query.map(\.key)
            bodyKind = Self.kind(of: encoding)
            self.body = Self.sources(body)
            if case .url(_, _, let bools) = encoding { boolsAreNumeric = bools == .numeric }
        case .multipart(let parts):
            bodyKind = .multipart
            body = Self.sources(parts)
        case .compositeMultipart(let parts, let query):
            bodyKind = .multipart
            body = Self.sources(parts)
            self.query = Self.sources(query)
            queryKeys = query.map(\.key)
        }
    }

    /// The names of the values read from the path and the query: a client that leaves one out
    /// or sends a wrong one is answered 400; the others, when missing, come from the case's example.
    func strictNames(pathNames: Set<String>) -> Set<String> {
        pathNames.union(query.map(\.valueName))
    }

    private static func kind(of encoding: ParameterEncodingSpec) -> BodyKind {
        switch encoding {
        case .url: .form
        case .json: .json
        case .propertyList: .other
        }
    }

    private static func members(of template: JSONTemplate) -> [JSONTemplate.Member] {
        if case .object(let members) = template { members } else { [] }
    }

    /// The parts of text (`value:`, `data:`) whose whole content is one placeholder.
    private static func sources(_ parts: [MultipartPartSpec]) -> [Source] {
        parts.compactMap { part in
            switch part.content {
            case .value(let template), .data(let template):
                template.soloPlaceholder.map { Source(key: part.name, valueName: $0) }
            case .file: nil
            }
        }
    }

    private static func sources(_ members: [JSONTemplate.Member]) -> [Source] {
        members.compactMap { member in
            switch member.value {
            case .placeholder(let name, _): Source(key: member.key, valueName: name)
            case .string(let template): template.soloPlaceholder.map { Source(key: member.key, valueName: $0) }
            default: nil
            }
        }
    }
}
