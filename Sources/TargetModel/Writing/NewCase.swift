import OrderedJSON

/// A request to add to a target file as a case (`moya-cli request … --save-as CASE`): what was
/// sent, in plain values the command line fills in field by field, and ``render(apiName:)`` turns
/// into the case's YAML.
///
/// ```swift
/// var request = NewCase(method: "POST", path: "/anything")
/// request.query = [.init(name: "tag", value: "a"), .init(name: "tag", value: "b")]
/// request.headers = [.init(name: "Authorization", value: "Bearer t0k", isSecret: true)]
/// request.body = .json(.object([("name", .string("moya"))]))
/// request.sample = .init(status: 200, contentType: "application/json", body: Array(#"{"ok":true}"#.utf8))
/// ```
///
/// What is written is what was sent, as literal text: `{`, `}` and `${` are escaped so a value
/// never becomes a placeholder or an environment reference. Secrets are never written (see
/// ``Header``).
package struct NewCase: Sendable, Equatable {
    /// The method as sent, in upper case (`GET`, `POST`, …).
    package var method: String
    /// The path after the API's base URL, starting with `/`, without the query.
    package var path: String
    /// The case's own base URL (Moya's per-case `baseURL`) when it is not the API's; `nil`: the
    /// API's.
    package var baseURL: String?
    /// The query parameters in the order sent; a name may repeat (`tag=a&tag=b`).
    package var query: [Pair] = []
    /// The headers the request added to the API's, in order.
    package var headers: [Header] = []
    package var body: Body = .none
    package var auth: Auth = .inherited
    /// The response, to become the case's `sample`; `nil` writes none.
    package var sample: Sample?
    /// The case's `description`, if any.
    package var description: String?
    /// Examples for the case's `file` values, by multipart part name: the file each part was sent
    /// with, so `check` can send the case (`examples: [{VALUE: PATH}]`).
    package var fileExamples: [String: FileExample] = [:]
    /// Secret values the request carried (the API's token, a password): never written, so a
    /// sample that echoes one has it as `<redacted>`. Secret headers' values are added to them.
    package var secretValues: [String] = []

    package init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    /// A name and a value: a query parameter or a form field.
    package struct Pair: Sendable, Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A header as sent.
    ///
    /// A secret header (`isSecret`, or a name in `CredentialNames.sensitiveHeaders`
    /// or in the API's `sensitiveHeaders`) is written as `${secret:VAR}`, never with its value:
    /// set `isSecret` for a header that came from `-u`, a bearer option or any credential.
    package struct Header: Sendable, Equatable {
        package var name: String
        package var value: String
        package var isSecret: Bool

        package init(name: String, value: String, isSecret: Bool = false) {
            self.name = name
            self.value = value
            self.isSecret = isSecret
        }
    }

    /// What the request sent as its body.
    package enum Body: Sendable, Equatable {
        case none
        /// A JSON body: written as `task: {json: …}`.
        case json(JSONValue)
        /// Form fields (`application/x-www-form-urlencoded`), in order; a name may repeat.
        case form([Pair])
        /// Any other body, as UTF-8 text: written as `task: {data: …}`.
        case text(String)
        /// A `multipart/form-data` body.
        case multipart([Part])
    }

    /// One part of a multipart body.
    package struct Part: Sendable, Equatable {
        package enum Content: Sendable, Equatable {
            /// A string field.
            case text(String)
            /// A file: the case takes it as a `file` value named after the part, so the path on
            /// the command line is not written into the file.
            case file(fileName: String?, mimeType: String?)
        }

        package var name: String
        package var content: Content
        /// The file a `file` part sent (`moya-cli request`'s `name@path`, absolute): read where
        /// it is when the request is sent, never written into the target file.
        package var path: String?

        package init(name: String, content: Content, path: String? = nil) {
            self.name = name
            self.content = content
            self.path = path
        }
    }

    /// The example of a `file` value: a file already in the target file's folder, or one to copy
    /// beside it (`samples/API/CASE-VALUE.EXT`).
    package enum FileExample: Sendable, Equatable {
        /// Its path relative to the target file's folder.
        case inFolder(String)
        /// Its bytes, and the extension to give the copy (`.txt`, or empty).
        case copy([UInt8], fileExtension: String)
    }

    /// Whose credentials the case sends.
    package enum Auth: Sendable, Equatable {
        /// The API's auth (no `auth` key in the case).
        case inherited
        /// None (`auth: none`).
        case none
        /// One of the API's auth schemes, by name (`auth: NAME`).
        case scheme(String)
    }

    /// The response, as the case's sample.
    package struct Sample: Sendable, Equatable {
        package var status: Int
        /// The response's `Content-Type`, if any: a JSON one (`application/json`,
        /// `application/problem+json`, …) writes the body as `json:`.
        package var contentType: String?
        package var body: [UInt8]
        /// The body's whole length when `body` holds only its first bytes (a streamed response).
        package var bodyLength: Int?

        package init(status: Int, contentType: String? = nil, body: [UInt8] = [], bodyLength: Int? = nil) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.bodyLength = bodyLength
        }
    }
}
