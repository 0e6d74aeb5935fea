import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// The exit codes scripts rely on; documented in man/moya-cli.1. Keep them stable.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case transportFailure = 1
    case timeout = 2
    case redirection = 3
    case clientError = 4
    case serverError = 5
    case tooManyRedirects = 6
    /// No token for `oauth2` or `command` auth: the token endpoint or command failed, or may not run.
    case credentials = 7
    case checkFailed = 8
    /// `--all` stopped at `--max-pages` with pages left.
    case morePages = 9
    case usage = 64
    case invalidTargetFile = 65
    /// moya-cli made something it cannot stand behind (an imported target file that does not
    /// validate): a bug, reported instead of written.
    case internalError = 70
    case cannotWriteOutput = 74
    case hungUp = 129
    case interrupted = 130
    case brokenPipe = 141
    case terminated = 143

    /// The exit code after the signal `number` (128 + the number, as a shell reports it).
    static func forSignal(_ number: Int32) -> ExitStatus {
        switch number {
        case SIGHUP: .hungUp
        case SIGTERM: .terminated
        default: .interrupted
        }
    }

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
