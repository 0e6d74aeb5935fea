extension OptionGroupSpec {
    static let target = OptionGroupSpec(
        name: "TargetOptions", arguments: "TargetArguments",
        doc: [
            "Where target files are found and how diagnostics look; shared by every subcommand (declared",
            "for ArgumentParser by `TargetArguments`)."
        ],
        items: [
            .repeated(
                "targetPaths", "--targets", valueName: "path",
                help: "A target file or folder to search first (repeatable).",
                doc: ["`--targets`, in the order given."],
                sample: "targets"),
            .flag("noColor", "--no-color", help: "Never use colors (also: NO_COLOR=1)."),
            .option(
                "fileRoot", "--file-root", valueName: "dir", type: "String?",
                help:
                    "Let target files read files (dataFile, multipart and sample files) inside this folder instead of their own.",
                doc: [
                    "`--file-root DIR`: files target files name (data files, multipart and sample files) must",
                    "be inside DIR instead of inside each target file's folder."
                ],
                completion: ".directory", sample: "/tmp")
        ],
        folder: "Options")
}
