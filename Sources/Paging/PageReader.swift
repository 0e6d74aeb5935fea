import MoyaKit
import OrderedJSON
import TargetModel
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page as `PageReader` read it: its items and where the next one is.
package struct Page: Sendable {
    /// The array of items, read in place in the page's body: a page of any size is not parsed
    /// into a tree, and its items are visited one at a time (`call --all` writes each out again
    /// from its bytes), so even a page of millions of tiny items takes no memory per item.
    package var itemArray: JSONSpan
    /// The next page, or `nil` when this is the last (or `nextProblem` says why there is none to follow).
    package var next: NextPage?
    /// Why the next page cannot be followed (a URL off the origin, not a URL...), when the items
    /// were read all the same: they are the server's, and worth keeping.
    package var nextProblem: PagingError?

    /// The items, parsed.
    package var items: [JSONValue] { itemArray.elements?.map(\.value) ?? [] }

    /// Creates a page; `itemArray` is an array.
    package init(itemArray: JSONSpan, next: NextPage?, nextProblem: PagingError? = nil) {
        self.itemArray = itemArray
        self.next = next
        self.nextProblem = nextProblem
    }
}

/// Where the next page is: a URL to fetch, already resolved, checked and (for a cursor) built.
package struct NextPage: Sendable, Hashable {
    /// The absolute URL of the next page.
    package var url: String
    /// The cursor, for the cursor style (what the loop guard compares); `nil` for URL styles.
    package var cursor: String?

    /// Creates a next page.
    package init(url: String, cursor: String? = nil) {
        self.url = url
        self.cursor = cursor
    }
}

/// Reads a page's items and next page from its response, as a `Pagination` says.
package struct PageReader: Sendable {
    /// How the case pages.
    package var pagination: Pagination
    /// The base URL the API was called with: next pages must stay on its origin.
    package var baseURL: String

    /// Creates a reader.
    package init(pagination: Pagination, baseURL: String) {
        self.pagination = pagination
        self.baseURL = baseURL
    }

    /// Reads one page.
    ///
    /// - Parameters:
    ///   - headers: the response's header fields, in order (several `Link` fields are read together).
    ///   - body: the response body; must be JSON (the items come from it).
    ///   - requestURL: the URL the page was fetched from: relative links resolve against it, and
    ///     a cursor is set in its query.
    /// - Throws: `PagingError` when the body is not JSON or the items are not an array. A next URL
    ///   or cursor that is not usable, or a next URL that leaves the base URL's origin, is the
    ///   page's `nextProblem`.
    package func read(headers: [(name: String, value: String)], body: Data, requestURL: String) throws(PagingError)
        -> Page
    {
        let document: JSONSpan
        do {
            document = try JSONSpan(validating: body)
        } catch {
            throw .bodyNotJSON(error.description)
        }
        let itemsPath = pagination.items ?? .root
        guard let found = itemsPath.span(in: document) else { throw .itemsMissing(itemsPath.source) }
        guard found.kind == .array else {
            throw .itemsNotArray(itemsPath.source, found: found.kind.description, explicit: pagination.items != nil)
        }
        do {
            return Page(itemArray: found, next: try next(headers: headers, document: document, requestURL: requestURL))
        } catch {
            return Page(itemArray: found, next: nil, nextProblem: error)
        }
    }

    /// The value at `path` of the page, parsed unless it is an array or an object: those are only
    /// named in errors, so a hostile page cannot get a large one parsed.
    private func scalar(at path: JSONPath, in document: JSONSpan) -> JSONValue? {
        guard let span = path.span(in: document) else { return nil }
        switch span.kind {
        case .array: return .array([])
        case .object: return .object([])
        default: return span.value
        }
    }

    private func next(headers: [(name: String, value: String)], document: JSONSpan, requestURL: String)
        throws(PagingError) -> NextPage?
    {
        switch pagination.next {
        case .link:
            let values = headers.filter { $0.name.lowercased() == "link" }.map(\.value)
            guard let target = LinkHeader.target(relation: "next", in: values) else { return nil }
            return NextPage(url: try checked(target, requestURL: requestURL, from: "the Link header"))
        case .bodyURL(let path):
            switch scalar(at: path, in: document) {
            case nil, .null?: return nil
            case .string(let text)?:
                if text.isEmpty { return nil }
                return NextPage(url: try checked(text, requestURL: requestURL, from: path.source))
            case let other?:
                throw .nextNotString(path.source, found: PagingError.kind(of: other))
            }
        case .cursor(let path, let parameter):
            let cursor: String
            switch scalar(at: path, in: document) {
            case nil, .null?: return nil
            case .string(let text)?: cursor = text
            case .int(let number)?: cursor = String(number)
            case .number(let number)?: cursor = number.text
            case .bool(false)?: return nil
            case let other?: throw .nextNotString(path.source, found: PagingError.kind(of: other))
            }
            if cursor.isEmpty { return nil }
            return NextPage(url: PageURL.settingQueryParameter(parameter, to: cursor, in: requestURL), cursor: cursor)
        }
    }

    /// Refuses a page answered from another origin than the base URL's: a redirect followed
    /// there (without the credentials) must not be read as the API's page.
    ///
    /// - Parameter answeringURL: the URL that answered, after redirects; `nil` for a stubbed page.
    package func checkAnswer(from answeringURL: String?) throws(PagingError) {
        guard let answeringURL, !PageURL.isSameOrigin(answeringURL, as: baseURL) else { return }
        throw .redirectedOffOrigin(answeringURL, baseOrigin: URLOrigin.origin(of: baseURL) ?? baseURL)
    }

    /// `reference` resolved against `requestURL`, refused unless on the base URL's origin.
    private func checked(_ reference: String, requestURL: String, from place: String) throws(PagingError) -> String {
        guard let url = PageURL.resolve(reference, against: requestURL) else {
            throw .invalidNextURL(reference, from: place)
        }
        guard PageURL.isSameOrigin(url, as: baseURL) else {
            throw .crossOrigin(url, baseOrigin: URLOrigin.origin(of: baseURL) ?? baseURL)
        }
        return url
    }
}

/// Why paging cannot go on.
package enum PagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not JSON.
    case bodyNotJSON(String)
    /// The items path names nothing.
    case itemsMissing(String)
    /// The items path names something other than an array; `explicit` when the file gave the path.
    case itemsNotArray(String, found: String, explicit: Bool)
    /// The next URL or cursor is not a string (or number, for a cursor).
    case nextNotString(String, found: String)
    /// The next URL is not an http(s) URL.
    case invalidNextURL(String, from: String)
    /// The next URL leaves the base URL's origin.
    case crossOrigin(String, baseOrigin: String)
    /// The page's request was redirected to another origin, which answered it.
    case redirectedOffOrigin(String, baseOrigin: String)

    package var description: String {
        switch self {
        case .bodyNotJSON(let problem): "the body is not JSON (\(problem)); pages must be JSON to be read"
        case .itemsMissing(let path): "the page has nothing at \(path) (the items)"
        case .itemsNotArray(let path, let found, let explicit):
            explicit
                ? "the items at \(path) are \(found), not an array"
                : "the body is \(found), not an array; say where the items are with 'items: \"$.data\"' in pagination"
        case .nextNotString(let path, let found): "the next page at \(path) is \(found), not a string"
        case .invalidNextURL(let reference, let place):
            "the next page's URL from \(place) is not an http(s) URL: '\(DisplayText.escapedAndCut(reference))'"
        case .crossOrigin(let url, let origin):
            "refusing to follow the next page to '\(DisplayText.escapedAndCut(url))': it leaves the API's origin (\(origin)); "
                + "a server may only page within the base URL's scheme, host and port"
        case .redirectedOffOrigin(let url, let origin):
            "refusing to read the page: its request was redirected to '\(DisplayText.escapedAndCut(url))', off the API's origin "
                + "(\(origin)); a server may only page within the base URL's scheme, host and port"
        }
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a bool"
        case .int, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
