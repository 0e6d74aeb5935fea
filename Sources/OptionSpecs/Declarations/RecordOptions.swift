extension OptionGroupSpec {
    static let record: OptionGroupSpec = {
        // `--record[=NAME]` sets two fields; ArgumentParser, which has no option whose value is
        // optional, is handed `--record=NAME` as the hidden `--record-name=NAME`.
        var record = OptionItem.flag("record", "--record", help: "")
        record.option?.kind = .optionalValue
        record.option?.valueName = "name"
        record.option?.help =
            "Write the live response into the target file as the case's sample (--record=NAME: the sample NAME); only a response that passed the case's validation."
        record.option?.assign = """
            { options, name in
                        options.record = true
                        options.sampleName = name
                    }
            """
        record.option?.sample = "fresh"
        record.field?.doc = ["`--record` or `--record=NAME`."]
        record.field?.mapping = "@@record || @@recordName != nil"
        let recordName = OptionSpec(
            property: "recordName", kind: .option, names: ["--record-name"], valueName: "name",
            help: "The sample --record=NAME writes.", propertyType: "String?",
            assign: """
                {
                            (options, name: String) in
                            options.record = true
                            options.sampleName = name
                        }
                """,
            hidden: true, sample: "fresh")
        return OptionGroupSpec(
            name: "RecordOptions", arguments: "RecordArguments",
            doc: ["Writing the live response into the target file as the case's sample (see `SampleRecording`)."],
            items: [
                record,
                OptionItem(
                    option: recordName,
                    field: PlainField(
                        name: "sampleName", type: "String?", initial: nil,
                        doc: ["The sample's name: `--record=NAME`; `nil`: the default sample."],
                        mapping: "@@recordName")),
                .flag(
                    "recordsFailures", "--record-failures",
                    help: "With --record: record a response that failed the case's validation too.",
                    doc: ["`--record-failures`: also a response that failed the case's validation."],
                    property: "recordFailures"),
                .flag(
                    "recordsHeaders", "--record-headers",
                    help:
                        "With --record: keep the response's headers in the sample (never Set-Cookie, Authorization or other sensitive ones).",
                    doc: ["`--record-headers`: the response's headers too (never sensitive ones)."],
                    property: "recordHeaders")
            ],
            folder: "Call")
    }()
}
