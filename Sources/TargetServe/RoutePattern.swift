import TargetModel

/// A case's path under its base URL's path, as segments to match a request's path against:
/// `https://h/api/v3` with `/users/{name}` matches `/api/v3/users/x` and binds `name` to `x`.
///
/// Empty segments are dropped on both sides, so `/users/` and `/users` are one route. A value
/// takes one whole segment or part of one (`/files/{name}.json`), never a `/`: the client sent a
/// `/` in a value as `%2F`, as `call` does.
struct RoutePattern: Sendable, Hashable {
    /// A piece of one segment.
    enum Piece: Sendable, Hashable {
        case literal(String)
        /// A case's value, by name.
        case value(String)
        /// A `${VAR}` in the path: any text, bound to nothing.
        case wildcard
    }

    /// One entry per path segment.
    private(set) var segments: [[Piece]]

    /// The pattern of `template` under the path `prefix` (a base URL's path, percent-decoded).
    init(prefix: String, template: Template) {
        var segments: [[Piece]] = prefix.split(separator: "/").map { [.literal(String($0))] }
        var current: [Piece] = []
        func closeSegment() {
            if !current.isEmpty { segments.append(current) }
            current = []
        }
        // A `{$uuid}`-style value (its marker in the text) is any text, as a `${VAR}`.
        func appendLiteral(_ text: Substring) {
            var rest = text
            while let start = rest.firstRange(of: DynamicValue.markerPrefix),
                let end = rest[start.upperBound...].firstRange(of: DynamicValue.markerSuffix)
            {
                if start.lowerBound > rest.startIndex { current.append(.literal(String(rest[..<start.lowerBound]))) }
                current.append(.wildcard)
                rest = rest[end.upperBound...]
            }
            if !rest.isEmpty { current.append(.literal(String(rest))) }
        }
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                var pieces = text.split(separator: "/", omittingEmptySubsequences: false)
                let first = pieces.removeFirst()
                appendLiteral(first)
                for piece in pieces {
                    closeSegment()
                    appendLiteral(piece)
                }
            case .placeholder(let name, _):
                current.append(.value(name))
            case .environment:
                current.append(.wildcard)
            }
        }
        closeSegment()
        self.segments = segments
    }

    /// The segments' text when the route has no value and no wildcard.
    var literalPath: [String]? {
        var path: [String] = []
        for pieces in segments {
            var text = ""
            for piece in pieces {
                guard case .literal(let literal) = piece else { return nil }
                text += literal
            }
            path.append(text)
        }
        return path
    }

    /// The route's shape: its literal text with every value written `{}`. Two cases of the same
    /// method and shape cannot be told apart by their paths.
    var shape: String {
        "/"
            + segments.map { pieces in
                pieces.map { piece in
                    switch piece {
                    case .literal(let text): text
                    case .value, .wildcard: "{}"
                    }
                }.joined()
            }.joined(separator: "/")
    }

    /// The route as a client writes it: `/users/{name}`.
    var display: String {
        "/"
            + segments.map { pieces in
                pieces.map { piece in
                    switch piece {
                    case .literal(let text): text
                    case .value(let name): "{\(name)}"
                    case .wildcard: "{}"
                    }
                }.joined()
            }.joined(separator: "/")
    }

    /// The values `path` (percent-decoded segments, empty ones dropped) binds, or `nil` when it
    /// is not this route.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (pieces, text) in zip(segments, path) {
            guard let bound = Self.match(pieces[...], Substring(text)) else { return nil }
            values.merge(bound) { first, _ in first }
        }
        return values
    }

    /// Matches one segment: literals exactly, each value or wildcard at least one character
    /// (the shortest that lets the rest match).
    private static func match(_ pieces: ArraySlice<Piece>, _ text: Substring) -> [String: String]? {
        guard let piece = pieces.first else { return text.isEmpty ? [:] : nil }
        let rest = pieces.dropFirst()
        switch piece {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return nil }
            return match(rest, text.dropFirst(literal.count))
        case .value, .wildcard:
            guard !text.isEmpty else { return nil }
            var end = text.index(after: text.startIndex)
            while true {
                if var bound = match(rest, text[end...]) {
                    if case .value(let name) = piece, bound[name] == nil { bound[name] = String(text[..<end]) }
                    return bound
                }
                guard end < text.endIndex else { return nil }
                end = text.index(after: end)
            }
        }
    }
}
