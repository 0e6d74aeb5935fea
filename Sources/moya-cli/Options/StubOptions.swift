import MoyaKit

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
