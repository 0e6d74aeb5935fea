import Foundation

extension CLIRunner {
    /// Runs `moya-cli arguments` in `folder` on a pseudo-terminal made by util-linux `script`
    /// (stdout and stderr both on it); `stdout` is what the terminal showed, CRs removed.
    /// `columns` sets the window's width with `stty` first (the TIOCGWINSZ path), `environment`
    /// is added to PATH, HOME, SHELL and TERM.
    package static func runOnTerminal(
        _ arguments: [String], in folder: URL, home: URL, environment: [String: String] = [:], columns: Int? = nil
    ) throws -> CLIResult {
        let quoted = ([binaryURL.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let command = (columns.map { "stty cols \($0) rows 50; " } ?? "") + "exec " + quoted.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = folder
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "SHELL": "/bin/sh", "TERM": "xterm"]
            .merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let screen = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return CLIResult(status: process.terminationStatus, stdout: screen, stderr: "", stdoutData: data)
    }
}
