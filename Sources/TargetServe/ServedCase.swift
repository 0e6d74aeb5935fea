import OrderedJSON
import TargetModel
import TargetSpec

/// One case as `serve` answers it: its API's builder (environment, trust), its route, and where
/// its request carries its values.
///
/// A class: the router looks at many for each request, and copying one would retain each of its
/// parts.
final class ServedCase: Sendable {
    let builder: TargetBuilder
    let spec: CaseSpec
    let method: String
    let route: RoutePattern
    let sources: ValueSources
    /// How the case's credential travels (`nil`: `auth: none`, or an API without auth): a case
    /// of a shared route that sends one is told from one that does not.
    let credential: CredentialPlace?
    /// The answers of a case that takes no values, rendered once at start, by sample name
    /// (`""` for the default); samples read from files are read per request, as `--stub` reads them.
    let rendered: [String: ServeResponse]

    init(
        builder: TargetBuilder, spec: CaseSpec, method: String, route: RoutePattern, sources: ValueSources,
        credential: CredentialPlace?, rendered: [String: ServeResponse]
    ) {
        self.builder = builder
        self.spec = spec
        self.method = method
        self.route = route
        self.sources = sources
        self.credential = credential
        self.rendered = rendered
    }

    /// `API.case`, as the log and error bodies name it.
    var qualifiedName: String { "\(builder.api.name).\(spec.name)" }

    /// The values a request binds, what is wrong with them, and how well the request fits this
    /// case (the router's tie-break between cases of one route).
    struct Binding: Sendable {
        var arguments: [String: ArgumentValue]
        var error: ArgumentError?
        var score: Int
    }

    /// Binds the case's values from `pathValues` (the route's), the query, the body and the
    /// headers, checked by the case's binder (types, enums, required values). A value missing
    /// from the body or headers, and every `file` value (a client never names a file on this
    /// machine), comes from the case's first example that has it, else its default.
    func bind(_ request: ServeRequest, pathValues: [String: String]) -> Binding {
        var words: [String: [String]] = pathValues.mapValues { [$0] }
        var score = 0
        func take(_ items: [(name: String, value: String)], for sources: [ValueSources.Source]) {
            for source in sources where words[source.valueName] == nil {
                let found = items.filter { Self.isParameter($0.name, named: source.key) }.map(\.value)
                if !found.isEmpty {
                    words[source.valueName] = found
                    score += 1
                }
            }
        }
        take(request.queryItems, for: sources.query)
        let requestBody = Self.bodyKind(of: request)
        if requestBody == sources.bodyKind { score += 3 }
        switch requestBody {
        case .form: take(ServeRequest.formItems(Substring(decoding: request.body, as: UTF8.self)), for: sources.body)
        case .json: take(Self.jsonMembers(request.body), for: sources.body)
        case .multipart: take(MultipartBody(request: request)?.fields ?? [], for: sources.body)
        default: break
        }
        take(request.headers, for: sources.headers)
        for item in request.queryItems {
            score += sources.queryKeys.contains { Self.isParameter(item.name, named: $0) } ? 1 : -1
        }
        if let credential {
            score += credential.isCarried(by: request) ? 1 : -1
        } else if request.header("authorization") != nil {
            score -= 1
        }

        for value in spec.values {
            if value.type == .file {
                words[value.name] = nil
            } else if sources.boolsAreNumeric, value.type == .bool || value.type.elementType == .bool {
                words[value.name] = words[value.name]?.map { $0 == "1" ? "true" : $0 == "0" ? "false" : $0 }
            }
        }
        let binder = ArgumentBinder(caseName: spec.name, values: spec.values)
        var (arguments, errors) = binder.bindReportingAll(namedWords: words)
        let strict = sources.strictNames(pathNames: Set(pathValues.keys))
        let bodyNames = Set(sources.body.map(\.valueName))
        errors.removeAll { error in
            let name: String
            let type: ValueType
            switch error {
            case .missingValue(let missing, let missingType) where !strict.contains(missing) || missingType == .file:
                (name, type) = (missing, missingType)
            case .invalidValue(_, let invalid, let invalidType) where bodyNames.contains(invalid):
                // A body's value at fault is the request checks' to answer (422, `RequestCheck`);
                // without them (`--no-validate`) the sample is answered with the example's.
                (name, type) = (invalid, invalidType)
                arguments[name] = spec.values.first { $0.name == name }?.defaultValue
            default:
                return false
            }
            if let example = spec.examples.first(where: { $0[name] != nil })?[name] { arguments[name] = example }
            return arguments[name] != nil || type == .file
        }
        return Binding(arguments: arguments, error: errors.first, score: score)
    }

    /// Whether a parameter named `name` is the case's `key`: as written, or as list encodings
    /// write it (`key[]`, `key[0]`).
    static func isParameter(_ name: String, named key: String) -> Bool {
        guard name.hasPrefix(key) else { return false }
        let rest = name.dropFirst(key.count)
        return rest.isEmpty
            || (rest.hasPrefix("[") && rest.hasSuffix("]") && rest.dropFirst().dropLast().allSatisfy(\.isNumber))
    }

    /// The kind of body the request sent, by its Content-Type.
    static func bodyKind(of request: ServeRequest) -> ValueSources.BodyKind {
        guard let header = request.header("content-type") else { return request.body.isEmpty ? .none : .other }
        let type = (header.split(separator: ";").first ?? "").lowercased().filter { $0 != " " && $0 != "\t" }
        if type == "application/x-www-form-urlencoded" { return .form }
        if type == "application/json" || type.hasSuffix("+json") { return .json }
        if type.hasPrefix("multipart/") { return .multipart }
        return request.body.isEmpty ? .none : .other
    }

    /// A JSON object body's top-level members as words: strings as they are, other values as
    /// JSON text; an array member gives one word per element. Anything else gives nothing.
    static func jsonMembers(_ body: [UInt8]) -> [(name: String, value: String)] {
        guard case .object(let members)? = try? JSONValue(parsing: body) else { return [] }
        func word(_ value: JSONValue) -> String {
            if case .string(let text) = value { return text }
            return value.serializedString()
        }
        return members.flatMap { key, value -> [(name: String, value: String)] in
            if case .array(let elements) = value { return elements.map { (key, word($0)) } }
            return [(key, word(value))]
        }
    }
}
