/// How a case's list is paged, as its target file says (`pagination:`).
public struct Pagination: Sendable, Hashable {
    /// Where the next page is found.
    public enum Next: Sendable, Hashable {
        /// RFC 8288 `Link: <...>; rel="next"` (GitHub's style).
        case link
        /// A URL in the body, at this path (`{next: {body: "$.next"}}`).
        case bodyURL(JSONPath)
        /// A cursor in the body, at `from`, sent back as the query parameter `parameter`.
        case cursor(from: JSONPath, parameter: String)
    }

    /// Where the next page is found.
    public var next: Next
    /// Where a page's items are: an array. `nil`: the body itself, which must then be an array.
    public var items: JSONPath?

    /// Creates a pagination.
    public init(next: Next, items: JSONPath? = nil) {
        self.next = next
        self.items = items
    }

    /// The style's name, as `list` and help show it: `link`, `body`, `cursor`.
    public var styleName: String {
        switch next {
        case .link: "link"
        case .bodyURL: "body"
        case .cursor: "cursor"
        }
    }
}
