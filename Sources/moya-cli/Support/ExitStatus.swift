import ArgumentParser

/// The exit codes scripts rely on; documented in man/moya-cli.1. Keep them stable.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case transportFailure = 1
    case timeout = 2
    case redirection = 3
    case clientError = 4
    case serverError = 5
    case tooManyRedirects = 6
    case checkFailed = 8
    case usage = 64
    case invalidTargetFile = 65
    case interrupted = 130

    /// The exit code for a response that failed its case's validation.
    static func forFailedValidation(statusCode: Int) -> ExitStatus {
        switch statusCode {
        case 300..<400: .redirection
        case 400..<500: .clientError
        case 500..<600: .serverError
        default: .clientError
        }
    }

    var exitCode: ExitCode { ExitCode(rawValue) }
}
