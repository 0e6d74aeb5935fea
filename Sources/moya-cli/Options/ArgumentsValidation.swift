import ArgumentParser

extension ParsableArguments {
    /// Runs a plain group's `validate()`, handing its refusal on as ArgumentParser's
    /// `ValidationError` with the same text, so messages and exit codes stay ArgumentParser's.
    func validating(_ validate: () throws(OptionsError) -> Void) throws {
        do {
            try validate()
        } catch {
            throw ValidationError(error.message)
        }
    }
}
