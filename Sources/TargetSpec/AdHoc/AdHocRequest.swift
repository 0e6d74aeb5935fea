import OrderedJSON
import TargetModel

/// One request no case declares (`moya-cli request`): what was asked, in the order it was asked,
/// ready to become a case to send (`caseSpec(in:)`) or to write (`NewCase(_:sentBody:…)`).
///
/// The request is held as the case `--save-as` writes (`sent`, a ``NewCase``), with the two
/// things a case cannot say beside it: the API's headers it removes, and a `--json`/`--data`
/// body, which is read only as it is sent.
package struct AdHocRequest: Sendable, Equatable {
    package typealias Pair = NewCase.Pair
    package typealias Auth = NewCase.Auth
    /// A multipart part; a file part (`name@path`) has its absolute `path`.
    package typealias Part = NewCase.Part

    /// `--json` or `--data` as given: the text, `@FILE` or `-` (sent as `call` sends them).
    package struct RawBody: Sendable, Equatable {
        package var argument: String
        package var isJSON: Bool

        package init(argument: String, isJSON: Bool) {
            self.argument = argument
            self.isJSON = isJSON
        }
    }

    /// The request as a case: the method (a token, upper case), the path (percent-encoded,
    /// starting with `/`, without a query), the query in order (a repeated name sent each time),
    /// the headers sent (for each name its last `Header:value`, in the order of those), the body
    /// from the items (a JSON object, form fields or multipart parts, fields in order), the auth.
    package var sent: NewCase
    /// The names whose last change removes them (`Header:`): the API's header of that name is not
    /// sent either.
    package var removedHeaderNames: [String] = []
    /// `--json` or `--data`, which replaces the body (then `sent.body` is `.none`).
    package var rawBody: RawBody?

    package init(method: String, path: String, query: [Pair] = [], auth: Auth = .inherited) {
        sent = NewCase(method: method, path: path)
        sent.query = query
        sent.auth = auth
    }

    package var method: String { sent.method }
    package var path: String { sent.path }
    package var query: [Pair] { sent.query }

    /// Sets the header `name` to `value`, or removes it (`nil`): a later change of a name wins.
    mutating func changeHeader(_ name: String, to value: String?) {
        sent.headers.removeAll { $0.name.lowercased() == name.lowercased() }
        removedHeaderNames.removeAll { $0.lowercased() == name.lowercased() }
        if let value {
            sent.headers.append(NewCase.Header(name: name, value: value))
        } else {
            removedHeaderNames.append(name)
        }
    }
}
