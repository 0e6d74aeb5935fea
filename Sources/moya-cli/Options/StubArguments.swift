import ArgumentParser

/// The `StubOptions` as ArgumentParser declares them (help texts included).
struct StubArguments: ParsableArguments {
    @Flag(help: "Answer from the case's sample data; nothing is sent.")
    var stub = false

    @Option(help: ArgumentHelp("With --stub: wait SECONDS (a decimal number) before answering (Moya's StubBehavior.delayed).", valueName: "seconds"))
    var delay: DecimalNumber?

    @Option(help: ArgumentHelp("With --stub: answer with the named sample instead of the default.", valueName: "name"))
    var sample: String?

    /// The values parsed, as the plain group the commands work with.
    var options: StubOptions {
        StubOptions(stub: stub, delay: delay?.value, sample: sample)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
