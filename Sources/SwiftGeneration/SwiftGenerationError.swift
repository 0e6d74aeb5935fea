/// Why an API cannot be written as Swift (exit 64: the command line asked for it).
package enum SwiftGenerationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--type-name` is not a Swift identifier.
    case invalidTypeName(String)

    package var description: String {
        switch self {
        case .invalidTypeName(let name):
            "--type-name '\(name)' is not a Swift type name: a letter or '_', then letters, digits and '_', not a keyword"
        }
    }
}
