/// A usage error binding a case's values (exit 64).
public enum ArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A required value was not given.
    case missingValue(name: String, type: ValueType)
    /// The text does not convert to the value's type (or is not one of the enum's cases).
    case invalidValue(String, name: String, type: ValueType)
    /// More positional values than the case declares.
    case tooManyValues(caseName: String, given: Int, accepted: Int, names: [String])
    /// A named value the case does not declare.
    case unknownValue(name: String, suggestion: String?, available: [String])
    /// The same value given positionally and by name.
    case duplicateValue(name: String)
    /// A value that is not a list given more than once by name.
    case repeatedValue(name: String)
    /// A `file` value naming a file that does not exist.
    case fileNotFound(path: String, name: String)
    /// A `file` value naming a folder or a file that cannot be read.
    case fileUnreadable(path: String, name: String)
    /// A `file` value written in a target file (an example) that leaves the files folder.
    case fileOutsideRoot(path: String, name: String, root: String)

    /// The value the error is about, if it is about one.
    public var valueName: String? {
        switch self {
        case .missingValue(let name, _), .invalidValue(_, let name, _), .unknownValue(let name, _, _),
            .repeatedValue(let name),
            .duplicateValue(let name), .fileNotFound(_, let name), .fileUnreadable(_, let name),
            .fileOutsideRoot(_, let name, _):
            name
        case .tooManyValues: nil
        }
    }

    /// The message for the user.
    public var description: String {
        switch self {
        case .missingValue(let name, let type):
            "missing value '\(name)' (\(type))"
        case .invalidValue(let text, let name, .enumeration(let cases)):
            "'\(text)' is not one of \(cases.joined(separator: ", ")) for value '\(name)'"
        case .invalidValue(let text, let name, let type):
            "'\(text)' is not \(type.withArticle) for value '\(name)'"
        case .tooManyValues(let caseName, let given, let accepted, let names):
            "too many values: '\(caseName)' takes \(accepted)"
                + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))") + ", \(given) given"
        case .unknownValue(let name, let suggestion, let available):
            "unknown value '\(name)'"
                + (suggestion.map { "; did you mean '\($0)'?" }
                    ?? (available.isEmpty
                        ? "; the case takes no values" : "; valid values: " + available.joined(separator: ", ")))
        case .duplicateValue(let name):
            "value '\(name)' is given twice (by position and by name)"
        case .repeatedValue(let name):
            "value --\(name) is given twice; only a list value can be repeated"
        case .fileNotFound(let path, let name):
            "file '\(path)' for value '\(name)' does not exist"
        case .fileUnreadable(let path, let name):
            "file '\(path)' for value '\(name)' is not a readable file"
        case .fileOutsideRoot(let path, let name, let root):
            "file '\(path)' for value '\(name)' is outside \(root); files a target file names must be inside it"
        }
    }
}
