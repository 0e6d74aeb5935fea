/// A name on the command line that names nothing (exit 64).
public enum SpecLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No API has this name; `searched` names the places looked at (see `TargetCatalog.searchedDescription`).
    case unknownAPI(String, suggestion: String?, available: [String], searched: String = "")
    /// The API exists but its file has errors.
    case invalidAPI(String, file: String)
    /// Two files at the same discovery level define the API; which one is meant is unclear.
    case duplicateAPI(String, files: [String])
    /// The API has no case of this name.
    case unknownCase(String, apiName: String, suggestion: String?, available: [String])
    /// The API has no environment of this name.
    case unknownEnvironment(String, apiName: String, suggestion: String?, available: [String])
    /// The case has no sample of this name.
    case unknownSample(String, caseName: String, suggestion: String?, available: [String])

    /// The message for the user.
    public var description: String {
        switch self {
        case .unknownAPI(let name, let suggestion, let available, let searched):
            "unknown API '\(name)'" + (searched.isEmpty ? "" : "; searched: " + searched)
                + Self.hint(suggestion, available, noun: "APIs")
        case .invalidAPI(let name, let file):
            "API '\(name)' is defined by \(file), which has errors; run 'moya-cli validate \(file)'"
        case .duplicateAPI(let name, let files):
            "API '\(name)' is defined twice at the same level: " + files.joined(separator: " and ")
                + "; rename one with 'api:'"
        case .unknownCase(let name, let apiName, let suggestion, let available):
            "unknown case '\(name)' in API '\(apiName)'" + Self.hint(suggestion, available, noun: "cases")
        case .unknownEnvironment(let name, let apiName, let suggestion, let available):
            "unknown environment '\(name)' in API '\(apiName)'" + Self.hint(suggestion, available, noun: "environments")
        case .unknownSample(let name, let caseName, let suggestion, let available):
            "unknown sample '\(name)' in case '\(caseName)'" + Self.hint(suggestion, available, noun: "samples")
        }
    }

    private static func hint(_ suggestion: String?, _ available: [String], noun: String) -> String {
        if let suggestion { return "; did you mean '\(suggestion)'?" }
        if available.isEmpty { return "; there are no \(noun)" }
        return "; valid \(noun): " + available.joined(separator: ", ")
    }
}
