import ArgumentParser

// The `RecordOptions` group's checks and helpers. Its fields, its table and `RecordArguments` are generated
// (`RecordOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension RecordOptions {
    func validate() throws(OptionsError) {
        if sampleName?.isEmpty == true { throw OptionsError("--record= needs a sample name after '='") }
        if recordsFailures && !record { throw OptionsError("--record-failures needs --record") }
        if recordsHeaders && !record { throw OptionsError("--record-headers needs --record") }
    }

    /// Refuses `--record` where a call has no one live response to record: with `--stub` (the
    /// answer is the sample already), `--all` (many pages) and `--capture`.
    func validate(stub: StubOptions, paging: PagingOptions) throws(OptionsError) {
        guard record else { return }
        if stub.stub { throw OptionsError("--record records a live response; it cannot go with --stub") }
        if paging.all { throw OptionsError("--record records one response; it cannot go with --all") }
        if paging.capture { throw OptionsError("--record cannot go with --capture") }
    }

    /// Refuses `check --record` without `--live`: offline, the answers are the samples.
    func validate(live: Bool) throws(OptionsError) {
        if record && !live { throw OptionsError("check --record records live responses; add --live") }
    }

    /// `arguments` as ArgumentParser reads them: it has no option whose value is optional, so
    /// `--record=NAME` is handed to it as the hidden `--record-name=NAME` (GNU's convention: the
    /// name only after `=`, so `--record NAME` keeps NAME a value of the case).
    static func spelledForArgumentParser(_ arguments: [String]) -> [String] {
        // The spellings as declared: `--record=` and `--record-name`.
        let record = Self.record.names[0] + "="
        let recordName = Self.recordName.names[0]
        var spelled: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return spelled + arguments[index...] }
            if argument == record {
                // An empty name reaches `validate()`, which says what is missing.
                spelled += [recordName, ""]
            } else if argument.hasPrefix(record) {
                spelled.append(recordName + "=" + argument.dropFirst(record.count))
            } else {
                spelled.append(argument)
            }
        }
        return spelled
    }
}
