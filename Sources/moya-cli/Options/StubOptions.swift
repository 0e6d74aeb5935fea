import ArgumentParser
import MoyaKit

// The `StubOptions` group's checks and helpers. Its fields, its table and `StubArguments` are generated
// (`StubOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension StubOptions {
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
