/// curl's option names that ArgumentParser cannot declare (a `.` in the name), rewritten to
/// moya-cli's before any parsing: `--tlsv1.2` is `--tls-min 1.2`. Only before `--`, after which
/// every word is a value.
enum CurlSpellings {
    /// The rewritten names, and what each becomes.
    static let table: [String: [String]] = [
        "--tlsv1.0": ["--tls-min", "1.0"], "--tlsv1.1": ["--tls-min", "1.1"],
        "--tlsv1.2": ["--tls-min", "1.2"], "--tlsv1.3": ["--tls-min", "1.3"]
    ]

    /// `arguments` with curl's dotted names rewritten.
    static func rewritten(_ arguments: [String]) -> [String] {
        guard arguments.contains(where: { $0.hasPrefix("--tlsv1.") }) else { return arguments }
        var result: [String] = []
        result.reserveCapacity(arguments.count + 1)
        var afterSeparator = false
        for argument in arguments {
            if argument == "--" { afterSeparator = true }
            if !afterSeparator, let replacement = table[argument] {
                result += replacement
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
