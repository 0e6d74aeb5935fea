import ArgumentParser
import CCleanup
import MoyaKit
import TargetCheck
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// `check`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into Check+Generated.swift (`make options`).
extension MoyaCommand.Check {
    static let configuration = CommandConfiguration(
        abstract: "Check every request of APIs: offline from their samples, or live (--live).",
        discussion: """
            For every case and each of its examples: offline, build the request and answer it with \
            every sample through the stub pipeline (the default sample must pass the case's \
            validation; JSON bodies must be JSON); with --live, send it and compare the status with \
            the case's validation and the JSON body's shape with the sample's. Examples with 'after:' run \
            as chains (create, get, delete), each step's captures feeding the next; --all follows the \
            pages of paginated cases. One line per check on \
            stderr. Exit codes: 0 all checks passed (skipped and not-covered ones aside), 8 some \
            failed, 64 usage, 65 some target file is invalid (it is reported as a failed check and the other \
            APIs are checked), 74 a report could not be written, 130 \
            interrupted (143 SIGTERM, 129 SIGHUP). See moya-cli(1) for the report schemas.
            """
    )

    func validate() throws {
        try recordArguments.validating { () throws(OptionsError) in
            try recordArguments.options.validate(live: checkArguments.options.live)
        }
    }

    func run() throws {
        try CheckInvocation(self).run()
    }

    /// The APIs and `--targets` of the words before the one completed, when they parse.
    @Sendable static func completionContext(_ words: [String]) -> CaseCompletion.Context? {
        (try? Self.parse(words)).map {
            CaseCompletion.Context(words: $0.apis, targetPaths: $0.targetArguments.targetPaths)
        }
    }

    static func makeScratchFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "moya-cli-check-\(UUID().uuidString)"
        ).path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            // Removed by the signal handler too, if a signal ends the run (when empty).
            _ = moya_cleanup_register(path, 1)
        } catch {
            throw CommandFailure(.transportFailure, "cannot create a temporary folder: \(error)")
        }
        return path
    }
}
