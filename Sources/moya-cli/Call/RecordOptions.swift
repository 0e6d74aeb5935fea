import ArgumentParser

// The `RecordOptions` group (`call` and `check --live`): the plain values, the table
// `DirectParser` reads, and `RecordArguments`, the ArgumentParser declaration made from it.

/// Writing the live response into the target file as the case's sample (see `SampleRecording`).
struct RecordOptions: Equatable {
    /// `--record` or `--record=NAME`.
    var record = false
    /// The sample's name: `--record=NAME`; `nil`: the default sample.
    var sampleName: String?
    /// `--record-failures`: also a response that failed the case's validation.
    var recordsFailures = false
    /// `--record-headers`: the response's headers too (never sensitive ones).
    var recordsHeaders = false

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
        var spelled: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return spelled + arguments[index...] }
            if argument == "--record=" {
                // An empty name reaches `validate()`, which says what is missing.
                spelled += ["--record-name", ""]
            } else if argument.hasPrefix("--record=") {
                spelled.append("--record-name=" + argument.dropFirst(9))
            } else {
                spelled.append(argument)
            }
        }
        return spelled
    }
}

extension RecordOptions {
    static var table: [OptionDeclaration<Self>] { [record, recordName, recordFailures, recordHeaders] }

    static var record: OptionDeclaration<Self> {
        .optionalValue(
            "--record", valueName: "name",
            help:
                "Write the live response into the target file as the case's sample (--record=NAME: the sample NAME); only a response that passed the case's validation."
        ) { options, name in
            options.record = true
            options.sampleName = name
        }
    }

    /// `--record=NAME` as ArgumentParser is given it (see ``spelledForArgumentParser(_:)``).
    static var recordName: OptionDeclaration<Self> {
        .option("--record-name", valueName: "name", help: "The sample --record=NAME writes.") {
            (options, name: String) in
            options.record = true
            options.sampleName = name
        }
    }

    static var recordFailures: OptionDeclaration<Self> {
        .flag("--record-failures", help: "With --record: record a response that failed the case's validation too.") {
            $0.recordsFailures = true
        }
    }

    static var recordHeaders: OptionDeclaration<Self> {
        .flag(
            "--record-headers",
            help:
                "With --record: keep the response's headers in the sample (never Set-Cookie, Authorization or other sensitive ones)."
        ) { $0.recordsHeaders = true }
    }
}

/// The `RecordOptions` as ArgumentParser declares them, from the group's table.
struct RecordArguments: ParsableArguments {
    @Flag(RecordOptions.record) var record: Bool
    @Option(
        name: RecordOptions.recordName.nameSpecification,
        help: ArgumentHelp(
            RecordOptions.recordName.help, valueName: RecordOptions.recordName.valueName, visibility: .hidden))
    var recordName: String?
    @Flag(RecordOptions.recordFailures) var recordFailures: Bool
    @Flag(RecordOptions.recordHeaders) var recordHeaders: Bool

    var options: RecordOptions {
        RecordOptions(
            record: record || recordName != nil, sampleName: recordName, recordsFailures: recordFailures,
            recordsHeaders: recordHeaders)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
