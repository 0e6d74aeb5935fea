import RequestImport

extension ImportedCase {
    /// What stderr says of an imported case after the file is written: why it has no sample, the
    /// secrets to set, the credentials left to call time and the files to give.
    var reportLines: [String] {
        var lines: [String] = []
        if let sampleOmission { lines.append("import: \(name): \(sampleOmission)") }
        for secret in secrets {
            lines.append(
                "import: \(name) reads \(secret.header) from ${secret:\(secret.variable)}; set \(secret.variable) to call it"
            )
        }
        for secret in secretValues {
            lines.append(
                "import: \(name) takes \(secret.parameter), a credential, as its value '\(secret.value)': it is not written"
            )
        }
        for file in fileValues {
            lines.append(
                "import: \(name) takes a file as its value '\(file.value)' (the command sent \(file.sentFile))")
        }
        return lines
    }
}
