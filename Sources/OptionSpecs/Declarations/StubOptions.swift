extension OptionGroupSpec {
    static let stub = OptionGroupSpec(
        name: "StubOptions", arguments: "StubArguments",
        doc: ["Answering from sample data instead of the network (declared for ArgumentParser by `StubArguments`)."],
        items: [
            .flag("stub", "--stub", help: "Answer from the case's sample data; nothing is sent."),
            .option(
                "delay", "--delay", valueName: "seconds", type: "Double?",
                help: "With --stub: wait SECONDS (a decimal number) before answering (Moya's StubBehavior.delayed).",
                doc: ["`--delay`, in seconds."], parsedAs: "DecimalNumber", sample: "0.2"),
            .option(
                "sample", "--sample", valueName: "name", type: "String?",
                help: "With --stub: answer with the named sample instead of the default.",
                completion: #"CaseCompletion.optionValue(.sampleName, in: ["call"])"#, sample: "notFound")
        ],
        folder: "Options")
}
