import ArgumentParser
import TargetModel
import TargetSpec
import TextSafety

/// A failure a subcommand reports on stderr before exiting with a documented status.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// Runs `body`, turning a `CommandFailure` into `moya-cli: error: …` on stderr and its exit code.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let failure as CommandFailure {
        // A failed stdout is reported once, by `MoyaCommand.terminate`.
        if StandardStream.failure == nil || ![.cannotWriteOutput, .brokenPipe].contains(failure.status) {
            StandardStream.error.write(
                "moya-cli: error: \(DisplayText.escaped(failure.message, keepingLineBreaks: true))\n")
        }
        throw failure.status.exitCode
    }
}
