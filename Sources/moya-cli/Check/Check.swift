import ArgumentParser
import CCleanup
import MoyaKit
import TargetCheck
import TargetSpec

extension MoyaCommand {
    struct Check: ParsableCommand {
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

        @Argument(help: ArgumentHelp("The APIs to check; default: every API found.", valueName: "api"),
                  completion: CaseCompletion.kind(of: .apiName, in: ["check"], parsing: completionContext))
        var apis: [String] = []

        @OptionGroup(title: "Check") var checkOptions: CheckOptions
        @OptionGroup(title: "Request") var requestArguments: RequestArguments
        @OptionGroup(title: "Target files") var targetArguments: TargetArguments

        func run() throws {
            try reportingFailures {
                let environment = ProcessEnvironment.current
                let loader = CatalogLoader(options: targetArguments.options, environment: environment)
                let (apis, invalidFiles) = try CheckTargets.apis(named: apis, loader: loader,
                                                                 environmentName: requestArguments.environment)
                let plan: CheckPlan
                do throws(CheckPlan.Problem) {
                    plan = try CheckPlan(apis: apis, only: checkOptions.only, skip: checkOptions.skip, shard: checkOptions.shard)
                } catch {
                    throw CommandFailure(.usage, error.description)
                }
                let scratch = try Self.makeScratchFolder()
                defer { try? FileManager.default.removeItem(atPath: scratch) }
                let configuration = CheckConfiguration(check: checkOptions, request: requestArguments.options,
                                                       processEnvironment: environment, downloadsFolder: scratch)
                let human = HumanReporter(items: plan.items, colors: loader.colorsDiagnostics,
                                          showsProgress: Terminal.isTerminal(StandardStream.error.fileDescriptor)) {
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
                let summary = CheckSummary(items: plan.items, results: results, isLive: checkOptions.live, shard: checkOptions.shard,
                                           duration: (ContinuousClock.now - start) / .seconds(1), invalidFiles: invalidFiles)
                human.finish(summary)
                let failed = summary.count(.failed)
                do {
                    try ReportWriter.write(checkOptions.reports, summary: summary)
                } catch let failure as CommandFailure where failed > 0 || !invalidFiles.isEmpty {
                    // A report that cannot be written must not hide that checks failed.
                    StandardStream.error.write("moya-cli: error: \(DisplayText.escaped(failure.message, keepingLineBreaks: true))\n")
                }
                if !invalidFiles.isEmpty {
                    let files = invalidFiles.map { "'\($0.file)'" }.joined(separator: ", ")
                    throw CommandFailure(.invalidTargetFile, "invalid target file\(invalidFiles.count == 1 ? "" : "s") \(files)"
                        + (results.isEmpty ? "" : "; \(failed) of \(results.count) checks of the other APIs failed"))
                }
                if failed > 0 { throw CommandFailure(.checkFailed, "\(failed) of \(results.count) checks failed") }
            }
        }

        /// The APIs and `--targets` of the words before the one completed, when they parse.
        @Sendable static func completionContext(_ words: [String]) -> CaseCompletion.Context? {
            (try? Check.parse(words)).map { CaseCompletion.Context(words: $0.apis, targetPaths: $0.targetArguments.targetPaths) }
        }

        static func makeScratchFolder() throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("moya-cli-check-\(UUID().uuidString)").path
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
}
