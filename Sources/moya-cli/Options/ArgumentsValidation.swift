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

extension CredentialArguments {
    /// The checks across groups that `call`, `curl` and `request` make alike: the credentials
    /// beside the body overrides and, with `habits`, curl's habits beside the request options.
    func validate(with overrides: OverrideArguments, habits: CurlHabitArguments?, request: RequestArguments)
        throws
    {
        let credentials = options
        try validating { () throws(OptionsError) in try credentials.validate(with: overrides.options) }
        if let habits {
            let curlHabits = habits.options
            try habits.validating { () throws(OptionsError) in try curlHabits.validate(with: request.options) }
        }
    }
}
