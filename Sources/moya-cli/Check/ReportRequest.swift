import TargetCheck

/// One `--report FORMAT:FILE`.
struct ReportRequest: Hashable {
    var format: ReportFormat
    /// The file, or `-` for stdout.
    var path: String

    /// Reads `FORMAT:FILE`, split at the first colon (format names have none, file names may).
    init(word: String) throws(OptionsError) {
        let formats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let colon = word.firstIndex(of: ":") else {
            if ReportFormat(rawValue: word) != nil {
                // The two-word spelling of earlier versions: its FILE went to the API names.
                throw OptionsError(
                    "--report takes FORMAT:FILE as one word: --report \(word):FILE ('\(word):-' for stdout)")
            }
            throw OptionsError(
                "--report '\(word)' is not FORMAT:FILE; FORMAT is one of \(formats), e.g. --report junit:check.xml")
        }
        let name = String(word[..<colon])
        guard let format = ReportFormat(rawValue: name) else {
            throw OptionsError("--report '\(word)': '\(name)' is not a format; use \(formats)")
        }
        let path = String(word[word.index(after: colon)...])
        guard !path.isEmpty else {
            throw OptionsError("--report \(name): needs a FILE after the colon ('\(name):-' for stdout)")
        }
        self.init(format: format, path: path)
    }

    init(format: ReportFormat, path: String) {
        self.format = format
        self.path = path
    }
}

typealias ReportFormat = CheckReport.Format
