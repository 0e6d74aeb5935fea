import ArgumentParser
import MoyaKit

// The `StubOptions` group: the plain values the commands use, the fast start-up path's
// option table (`directOptions`), and `StubArguments`, their ArgumentParser declaration with the
// help texts. A new option is added here, in all three.

/// Answering from sample data instead of the network (declared for ArgumentParser by `StubArguments`).
struct StubOptions: Equatable {
    /// `--stub`.
    var stub = false
    /// `--delay`, in seconds.
    var delay: Double?
    /// `--sample`.
    var sample: String?

    /// Refuses stub settings without `--stub`, and delays out of range.
    func validate() throws(OptionsError) {
        if let delay {
            guard delay >= 0, delay <= SessionConfiguration.maximumInterval else {
                throw OptionsError("--delay must be a number of seconds from 0 to \(Int(SessionConfiguration.maximumInterval))")
            }
            guard stub else { throw OptionsError("--delay needs --stub") }
        }
        if sample != nil && !stub { throw OptionsError("--sample needs --stub") }
    }
}

extension StubOptions {
    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .flag("--stub") { $0.stub = true },
            .option("--delay") { (options, delay: DecimalNumber) in options.delay = delay.value },
            .option("--sample") { $0.sample = $1 },
        ]
    }
}

/// The `StubOptions` as ArgumentParser declares them (help texts included).
struct StubArguments: ParsableArguments {
    @Flag(help: "Answer from the case's sample data; nothing is sent.")
    var stub = false

    @Option(help: ArgumentHelp("With --stub: wait SECONDS (a decimal number) before answering (Moya's StubBehavior.delayed).", valueName: "seconds"))
    var delay: DecimalNumber?

    @Option(help: ArgumentHelp("With --stub: answer with the named sample instead of the default.", valueName: "name"),
            completion: CaseCompletion.optionValue(.sampleName, in: ["call"]))
    var sample: String?

    /// The values parsed, as the plain group the commands work with.
    var options: StubOptions {
        StubOptions(stub: stub, delay: delay?.value, sample: sample)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
