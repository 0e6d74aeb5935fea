import ArgumentParser
import MoyaKit
import TargetCheck
import TargetModel
import TargetSpec
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// `CheckInvocation` runs the command. Its fields, its table and `init(_ command:)` are declared in
// Sources/OptionSpecs/Declarations and generated into Check+Generated.swift (`make options`).
extension CheckInvocation {
    /// An unknown `--name` is an unknown option here, not a word.
    static var takesValueNames: Bool { false }

    /// Refuses what the option groups' `validate()` refuse, in the order ArgumentParser runs them.
    func validate() throws(OptionsError) {
        try checkOptions.validate()
        try requestOptions.validate()
        try targetOptions.validate()
        try recordOptions.validate()
        try recordOptions.validate(live: checkOptions.live)
    }

    func run() throws {
        if help { throw CleanExit.helpRequest(MoyaCommand.Check.self) }
        try reportingFailures {
            try curlLetters.refuseLetters()
            try curlHabits.checkForCheck()
        }
        let reports: [ReportRequest]
        do throws(OptionsError) {
            reports = try checkOptions.reports()
        } catch {
            throw CommandFailure(.usage, error.message)
        }
        try reportingFailures {
            let environment = ProcessEnvironment.current
            let loader = CatalogLoader(options: targetOptions, environment: environment)
            let (apis, invalidFiles) = try CheckTargets.apis(
                named: apis, loader: loader,
                environmentName: requestOptions.environment)
            let plan: CheckPlan
            do throws(CheckPlan.Problem) {
                plan = try CheckPlan(
                    apis: apis, only: checkOptions.only, skip: checkOptions.skip, shard: checkOptions.shard)
            } catch {
                throw CommandFailure(.usage, error.description)
            }
            let scratch = try MoyaCommand.Check.makeScratchFolder()
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            var configuration = CheckConfiguration(
                check: checkOptions, request: requestOptions,
                processEnvironment: environment, downloadsFolder: scratch)
            configuration.recordsResponses = recordOptions.record
            // Only the reports show each check's request; the lines on stderr do not.
            configuration.keepsRequests = !reports.isEmpty
            let human = HumanReporter(
                items: plan.items, colors: loader.colorsDiagnostics,
                showsProgress: Terminal.isTerminal(StandardStream.error.fileDescriptor)
            ) {
                StandardStream.error.write($0)
            }
            let runner = CheckRunner(items: plan.items, configuration: configuration)
            // Ctrl-C (SIGTERM, SIGHUP) cancels what is in flight.
            let interrupt = Interrupt.install()
            interrupt.onInterrupt { runner.cancel() }
            interrupt.watchInBackground()
            let start = ContinuousClock.now
            guard let results = runner.run(report: human.receive) else {
                let signalled = Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
                throw CommandFailure(signalled.status, signalled.message + "; no report written")
            }
            let summary = CheckSummary(
                items: plan.items, results: results, isLive: checkOptions.live, shard: checkOptions.shard,
                duration: (ContinuousClock.now - start) / .seconds(1), invalidFiles: invalidFiles)
            human.finish(summary)
            let failed = summary.count(.failed)
            if recordOptions.record {
                try CheckRecording(options: recordOptions, fileRoot: targetOptions.fileRoot).record(
                    items: plan.items, results: results)
            }
            do {
                try ReportWriter.write(reports, summary: summary)
            } catch let failure as CommandFailure where failed > 0 || !invalidFiles.isEmpty {
                // A report that cannot be written must not hide that checks failed.
                StandardStream.error.write(
                    "moya-cli: error: \(DisplayText.escaped(failure.message, keepingLineBreaks: true))\n")
            }
            if !invalidFiles.isEmpty {
                let files = invalidFiles.map { "'\($0.file)'" }.joined(separator: ", ")
                throw CommandFailure(
                    .invalidTargetFile,
                    "invalid target file\(invalidFiles.count == 1 ? "" : "s") \(files)"
                        + (results.isEmpty ? "" : "; \(failed) of \(results.count) checks of the other APIs failed"))
            }
            if failed > 0 { throw CommandFailure(.checkFailed, "\(failed) of \(results.count) checks failed") }
        }
    }
}
