import ArgumentParser
import MoyaKit

// The `StubOptions` group: the plain values the commands use (with their defaults), the table
// that names and describes each option (read by `DirectParser`), and `StubArguments`, the
// ArgumentParser declaration made from that table. A new option is a field, an entry and a wrapper.

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
                throw OptionsError(
                    "--delay must be a number of seconds from 0 to \(Int(SessionConfiguration.maximumInterval))")
            }
            guard stub else { throw OptionsError("--delay needs --stub") }
        }
        if sample != nil && !stub { throw OptionsError("--sample needs --stub") }
    }
}

extension StubOptions {
    /// The group's options, as `DirectParser` reads them and `StubArguments` declares them.
    static var table: [OptionDeclaration<Self>] { [stub, delay, sample] }

    static var stub: OptionDeclaration<Self> {
        .flag("--stub", help: "Answer from the case's sample data; nothing is sent.") { $0.stub = true }
    }

    static var delay: OptionDeclaration<Self> {
        .option(
            "--delay", valueName: "seconds",
            help: "With --stub: wait SECONDS (a decimal number) before answering (Moya's StubBehavior.delayed)."
        ) {
            (options, delay: DecimalNumber) in options.delay = delay.value
        }
    }

    static var sample: OptionDeclaration<Self> {
        .option(
            "--sample", valueName: "name", help: "With --stub: answer with the named sample instead of the default."
        ) { $0.sample = $1 }
    }
}

/// The `StubOptions` as ArgumentParser declares them, from the group's table.
struct StubArguments: ParsableArguments {
    @Flag(StubOptions.stub) var stub: Bool
    @Option(StubOptions.delay) var delay: DecimalNumber?
    @Option(StubOptions.sample, completion: CaseCompletion.optionValue(.sampleName, in: ["call"])) var sample: String?

    /// The values parsed, as the plain group the commands work with.
    var options: StubOptions {
        StubOptions(stub: stub, delay: delay?.value, sample: sample)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
