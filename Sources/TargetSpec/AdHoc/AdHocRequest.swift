import OrderedJSON
import TargetModel

/// One request no case declares (`moya-cli request`), as plain values: what was asked, in the
/// order it was asked, ready to become a case (`caseSpec(in:)`) or to be written as one.
package struct AdHocRequest: Sendable, Equatable {
    /// A name and a value, as given (not percent-encoded).
    package struct Pair: Sendable, Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A header set (`Header:value`, `-H`) or removed (`Header:`: `value` is `nil`).
    package struct HeaderChange: Sendable, Equatable {
        package var name: String
        package var value: String?

        package init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// One part of a multipart body.
    package struct Part: Sendable, Equatable {
        package enum Content: Sendable, Equatable {
            /// `name=value`: text.
            case text(String)
            /// `name@path`: a file's bytes, the path absolute.
            case file(path: String)
        }

        package var name: String
        package var content: Content

        package init(name: String, content: Content) {
            self.name = name
            self.content = content
        }
    }

    /// What is sent as the body.
    package enum Body: Sendable, Equatable {
        /// Nothing.
        case none
        /// A JSON object from `name=value` (strings) and `name:=json` fields, in order.
        case json([(name: String, value: JSONValue)])
        /// `application/x-www-form-urlencoded` fields (`--form`), in order.
        case form([Pair])
        /// `--json` or `--data` as given: the text, `@FILE` or `-` (sent as `call` sends them).
        case raw(argument: String, isJSON: Bool)
        /// `multipart/form-data` parts, in order (a `name@path` item makes the body multipart).
        case multipart([Part])

        package static func == (lhs: Body, rhs: Body) -> Bool {
            switch (lhs, rhs) {
            case (.none, .none): true
            case (.json(let a), .json(let b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
            case (.form(let a), .form(let b)): a == b
            case (.raw(let a, let x), .raw(let b, let y)): a == b && x == y
            case (.multipart(let a), .multipart(let b)): a == b
            default: false
            }
        }
    }

    /// Which of the API's credentials the request carries.
    package enum Auth: Sendable, Equatable {
        /// What a case without `auth:` gets: the API's default auth, if it has one.
        case inherited
        /// `--auth none`: none.
        case none
        /// `--auth NAME`: the API's auth scheme NAME.
        case scheme(String)
    }

    /// The method, a token, upper case.
    package var method: String
    /// The path, percent-encoded, starting with `/`, without a query.
    package var path: String
    /// Query parameters in order; a repeated name is sent each time.
    package var query: [Pair] = []
    /// Header changes in order (a later one of a name wins).
    package var headers: [HeaderChange] = []
    package var body: Body = .none
    package var auth: Auth = .inherited

    package init(
        method: String, path: String, query: [Pair] = [], headers: [HeaderChange] = [], body: Body = .none,
        auth: Auth = .inherited
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.auth = auth
    }

    /// The headers sent: for each name, its last change when that sets it, in the order of those changes.
    package var sentHeaders: [Pair] {
        var sent: [Pair] = []
        for change in headers {
            sent.removeAll { $0.name.lowercased() == change.name.lowercased() }
            if let value = change.value { sent.append(Pair(name: change.name, value: value)) }
        }
        return sent
    }

    /// The names whose last change removes them (the API's header of that name is not sent either).
    package var removedHeaderNames: [String] {
        var removed: [String] = []
        for change in headers {
            removed.removeAll { $0.lowercased() == change.name.lowercased() }
            if change.value == nil { removed.append(change.name) }
        }
        return removed
    }

    /// The methods that carry no body (as a target file's validator says).
    package static let methodsWithoutBody = ["GET", "HEAD", "TRACE"]
}
