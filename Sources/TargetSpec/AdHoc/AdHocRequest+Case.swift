import MoyaKit
import OrderedJSON
import PositionedYAML
import TargetModel

extension AdHocRequest {
    /// The name of the case an ad-hoc request becomes, as messages show it (`web.GET /users/1:
    /// HTTP 404 ...`): its method and path, which no case of a file can be named (a case name is
    /// an identifier).
    package var caseName: String { method + " " + path + encodedQuery }

    /// The request as a case of `api`, and the values it is built with (each file part is a `file`
    /// value, so a path from the command line is read where it is, as a case's `file` value is).
    ///
    /// The path, query, headers and body are literal text: nothing in them is read as a
    /// `{placeholder}` or a `${VAR}`.
    /// - Throws: when `auth` names a scheme `api` does not have.
    package func caseSpec(in api: APISpec) throws(AdHocRequestError) -> (
        spec: CaseSpec, arguments: [String: ArgumentValue]
    ) {
        let mark = Mark(line: 0, column: 0)
        var fields = CaseSpec.Fields(
            name: caseName, mark: mark, path: Template(literal: path + encodedQuery, mark: mark))
        fields.method = method
        fields.headers = sent.headers.map {
            HeaderSpec(name: $0.name, value: Template(literal: $0.value, mark: mark))
        }
        fields.auth = try caseAuth(in: api)
        var arguments: [String: ArgumentValue] = [:]
        switch sent.body {
        case .none:
            // `--json` and `--data` (`rawBody`) replace the body as they do for `call`
            // (`RequestOverridePlugin`).
            break
        case .json(let value):
            fields.task = .json(Self.template(value))
        case .text(let text):
            fields.task = .data(Template(literal: text, mark: mark))
        case .form(let pairs):
            let text = pairs.map {
                PercentEncoding.escapeQueryComponent($0.name) + "=" + PercentEncoding.escapeQueryComponent($0.value)
            }
            .joined(separator: "&")
            fields.task = .data(Template(literal: text, mark: mark))
            if !sent.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                fields.headers.append(
                    HeaderSpec(
                        name: "Content-Type", value: Template(literal: "application/x-www-form-urlencoded", mark: mark))
                )
            }
        case .multipart(let parts):
            var specs: [MultipartPartSpec] = []
            for (index, part) in parts.enumerated() {
                switch part.content {
                case .text(let value):
                    specs.append(
                        MultipartPartSpec(
                            name: part.name, content: .value(Template(literal: value, mark: mark)), mark: mark))
                case .file:
                    guard let path = part.path else {
                        throw AdHocRequestError("the file part '\(AdHocPath.displayed(part.name))' names no file")
                    }
                    let value = "file\(index + 1)"
                    arguments[value] = .file(path: path)
                    let placeholder = Template(
                        segments: [.placeholder(name: value, mark: mark)], source: "{\(value)}", mark: mark)
                    specs.append(MultipartPartSpec(name: part.name, content: .file(path: placeholder), mark: mark))
                }
            }
            fields.task = .multipart(specs)
        }
        return (CaseSpec(fields), arguments)
    }

    /// The query as a URL's, after `?` (empty when there is none): in order, repeats kept, each
    /// name and value percent-encoded. (A case's `parameters` would be sorted by name.)
    package var encodedQuery: String {
        guard !query.isEmpty else { return "" }
        return "?"
            + query.map {
                PercentEncoding.escapeQueryComponent($0.name) + "=" + PercentEncoding.escapeQueryComponent($0.value)
            }
            .joined(separator: "&")
    }

    /// The API of `request METHOD URL`, which has no target file: the URL's origin, the current
    /// folder, validation by success codes (3xx after redirects, 4xx and 5xx fail), no auth.
    package static func api(origin: String, directory: String) -> APISpec {
        var fields = APISpec.Fields(
            name: "request", file: "", directory: directory, baseURL: Template(literal: origin), cases: [])
        fields.validation = .successCodes
        return APISpec(fields)
    }

    private func caseAuth(in api: APISpec) throws(AdHocRequestError) -> CaseAuthMode {
        switch sent.auth {
        case .inherited: return .inherited
        case .none: return .none
        case .scheme(let name):
            guard api.authSchemes.contains(where: { $0.name == name }) else {
                let names = api.authSchemes.map(\.name)
                throw AdHocRequestError(
                    "--auth '\(AdHocPath.displayed(name))': API '\(api.name)' has "
                        + (names.isEmpty
                            ? "no auth; leave --auth out"
                            : "no auth scheme of that name; its schemes: \(names.joined(separator: ", ")), or none"))
            }
            return .scheme(name)
        }
    }

    /// A JSON value as a template that renders to it, its strings literal.
    private static func template(_ value: JSONValue) -> JSONTemplate {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .number(let number): .double(number)
        case .string(let text): .string(Template(literal: text))
        case .array(let elements): .array(elements.map(template))
        case .object(let members): .object(members.map { JSONTemplate.Member(key: $0.0, value: template($0.1)) })
        }
    }
}
