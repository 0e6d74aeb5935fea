/// The last line every import writes on stderr: what to run next, and, when the file written reads
/// variables a file outside the trusted folders may not read, the trust step first, so the line
/// works when followed literally.
enum ImportNextStep {
    /// `import: next: [moya-cli trust FILE (or MOYA_ALLOW_ENV=A:B); ]moya-cli list API; moya-cli check API`,
    /// or `nil` when the file went to standard output.
    static func line(path: String, apiName: String, variables: [String]) -> String? {
        guard path != "-" else { return nil }
        var seen = Set<String>()
        let unique = variables.filter { seen.insert($0).inserted }
        let trust = TrustHint.step(file: path, variables: unique).map { $0 + "; " } ?? ""
        return "import: next: \(trust)moya-cli list \(apiName); moya-cli check \(apiName)"
    }
}
