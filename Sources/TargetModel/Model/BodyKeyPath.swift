import OrderedJSON

/// A path to one value of a JSON body as `--keypath` takes it, in either dialect: the target
/// file's JSON path (`$.items[0].name`, `$['dotted.key']`; see `JSONPath`) when it starts with
/// `$`, else Moya's dotted key path (`items.0.name`: a number is an index in an array and a
/// member name in an object, as `Response.mapString(atKeyPath:)` reads it).
///
/// A lookup that finds nothing says which step missed and why, so a user can fix the path.
package struct BodyKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of the path.
    package enum Step: Sendable, Hashable {
        /// An object member (`.name`, `['name']`).
        case member(String)
        /// An array element (`[0]`).
        case index(Int)
        /// A dotted component: an index in an array when it is a decimal number, else a member.
        case dotted(String)
    }

    /// The steps, in order.
    package let steps: [Step]
    /// The path as written.
    package let source: String

    /// Whether the path is written as a JSON path (`$...`) rather than dotted.
    package var isJSONPath: Bool { source.hasPrefix("$") }

    package var description: String { source }

    /// Reads `text` in the dialect its first character says.
    ///
    /// - Throws: `JSONPathError` for a `$` path that is not valid (a dotted path always is).
    package init(parsing text: String) throws(JSONPathError) {
        source = text
        if text.hasPrefix("$") {
            steps = try JSONPath(parsing: text).components.map {
                switch $0 {
                case .key(let name): .member(name)
                case .index(let index): .index(index)
                }
            }
        } else if text.isEmpty {
            steps = []
        } else {
            // As Moya splits it: `a..b` has an empty member name between the dots.
            steps = text.split(separator: ".", omittingEmptySubsequences: false).map { .dotted(String($0)) }
        }
    }

    /// Why a path found nothing: the step that missed (as written in the path's dialect) and why.
    package struct Miss: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong, naming the part of the path.
        package var description: String
    }

    /// The value the path names in `body`.
    ///
    /// - Throws: `Miss` naming the first step that found nothing.
    package func value(in body: JSONSpan) throws(Miss) -> JSONSpan {
        var current = body
        for (position, step) in steps.enumerated() {
            // Named only on a miss: building it at every step would cost a long path's length squared.
            var place: String { self.place(upTo: position) }
            switch current.kind {
            case .array:
                guard let index = Self.index(of: step) else {
                    if case .member = step {
                        throw Miss(description: "\(place) is an array, not an object, so it has no \(written(step))")
                    }
                    throw Miss(
                        description:
                            "\(written(step)) is not an index, and \(place) is an array (of \(Self.elements(current)))")
                }
                guard let element = current.element(at: index) else {
                    throw Miss(
                        description:
                            "no element \(written(step)) in the array at \(place), which has \(Self.elements(current))")
                }
                current = element
            case .object:
                guard let name = Self.memberName(of: step) else {
                    throw Miss(description: "\(place) is an object, not an array, so it has no \(written(step))")
                }
                guard let member = current.member(named: name) else {
                    let hint =
                        Suggestion.closest(to: name, in: Self.memberNames(of: current)).map {
                            "; did you mean '\($0)'?"
                        } ?? ""
                    throw Miss(description: "no member \(written(step)) in the object at \(place)\(hint)")
                }
                current = member
            case let kind:
                let wanted =
                    switch step {
                    case .member: "an object"
                    case .index: "an array"
                    case .dotted: "an object or an array"
                    }
                throw Miss(
                    description: "\(place) is \(Self.name(of: kind)), not \(wanted), so it has no \(written(step))")
            }
        }
        return current
    }

    /// The path up to (not including) step `end`, as written; the root is "the body".
    private func place(upTo end: Int) -> String {
        guard end > 0 else { return "the body" }
        if isJSONPath { return "$" + steps[..<end].map(written).joined() }
        return steps[..<end].map { if case .dotted(let name) = $0 { name } else { written($0) } }.joined(separator: ".")
    }

    /// A step as the path's dialect writes it.
    private func written(_ step: Step) -> String {
        switch step {
        case .member(let name) where Self.isPlainName(name): ".\(name)"
        case .member(let name): "['" + String(name.flatMap { $0 == "\\" || $0 == "'" ? "\\\($0)" : "\($0)" }) + "']"
        case .index(let index): "[\(index)]"
        case .dotted(let name): "'\(name)'"
        }
    }

    /// The index a step names, when it can name one (a decimal dotted component, as Moya's `Int(_:)` reads it).
    private static func index(of step: Step) -> Int? {
        switch step {
        case .index(let index): index
        case .dotted(let text): Int(text)
        case .member: nil
        }
    }

    /// The member name a step names, when it can name one.
    private static func memberName(of step: Step) -> String? {
        switch step {
        case .member(let name), .dotted(let name): name
        case .index: nil
        }
    }

    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                switch $0 {
                case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
                default: $0.value >= 0x80
                }
            }
    }

    /// `1 element`, `2 elements`.
    private static func elements(_ array: JSONSpan) -> String {
        var count = 0
        array.forEachElement { _ in count += 1 }
        return count == 1 ? "1 element" : "\(count) elements"
    }

    /// The member names of an object: read only when a member is missed, for the did-you-mean.
    private static func memberNames(of object: JSONSpan) -> [String] {
        guard case .object(let members) = object.value else { return [] }
        return members.map(\.0)
    }

    private static func name(of kind: JSONSpan.Kind) -> String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
