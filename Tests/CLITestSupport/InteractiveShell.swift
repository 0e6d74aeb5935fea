import Foundation
import XCTest

/// An interactive bash, zsh or fish in a pseudo-terminal (util-linux `script`), with moya-cli's
/// generated completion script loaded, that records what TAB would offer for each line typed.
///
/// The shells complete only inside their line editor, so they run interactively:
/// - bash: the script's `_moya-cli` is wrapped so what it leaves in COMPREPLY is written to the
///   output file and then dropped; TAB runs it, Ctrl-U clears the line. bash splits words at `:`
///   here exactly as for a user (COMP_WORDBREAKS), which no hand-made COMP_WORDS shows.
/// - zsh: `compinit`, then the script; `compadd` is wrapped so every match added is also written
///   to the output file. Ctrl-T runs `complete-word`, writes a separator and clears the line.
/// - fish: Ctrl-T writes `complete -C` of the line typed so far, a separator, and clears the line.
///   `complete -C` in a non-interactive fish cannot answer `commandline -C`, which the generated
///   script needs (fish-shell#11993); in the line editor the cursor is the real one, at the end.
package struct InteractiveShell {
    package enum Kind: String {
        case bash, zsh, fish
    }

    package let kind: Kind
    package let executable: String
    package let script: String

    package static let separator = "--- end of completions ---"

    /// The shell and `script`, or an `XCTSkip` saying what to install.
    package init(_ kind: Kind) throws {
        guard let executable = Self.locate(kind.rawValue) else {
            throw XCTSkip(
                "\(kind.rawValue) is not installed, so its completion is not tested; `make test` installs it "
                    + "(apt-get install \(kind.rawValue))")
        }
        guard let script = Self.locate("script") else {
            throw XCTSkip(
                "`script` (util-linux) is not installed; it gives \(kind.rawValue) the terminal it completes in")
        }
        self.kind = kind
        self.executable = executable
        self.script = script
    }

    package static func locate(_ name: String) -> String? {
        let folders =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/local/bin", "/usr/bin", "/bin"]
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What TAB offers at the end of each of `lines` (typed as is, quotes included), in order.
    /// zsh gives matches as they would be inserted (`two\ words`), fish as values (`two words`).
    package func completions(
        _ lines: [String], completionScript: String, in folder: TemporaryFolder, environment: [String: String],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [[String]] {
        let session = folder.url.appendingPathComponent("\(kind.rawValue)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        let output = session.appendingPathComponent("completions")
        let ready = session.appendingPathComponent("ready")
        let scriptFile = session.appendingPathComponent(kind == .zsh ? "_moya-cli" : "moya-cli.\(kind.rawValue)")
        try completionScript.write(to: scriptFile, atomically: true, encoding: .utf8)
        let setup = session.appendingPathComponent(kind == .zsh ? ".zshrc" : "setup.\(kind.rawValue)")
        try setupScript(completionScript: scriptFile.path, output: output.path, ready: ready.path)
            .write(to: setup, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        let shellCommand =
            switch kind {
            case .bash: "\(executable) --rcfile '\(setup.path)' -i"
            case .zsh: "\(executable) --no-globalrcs -i"
            case .fish: "\(executable) --no-config --interactive --init-command 'source \(setup.path)'"
            }
        process.arguments = ["-qfc", shellCommand, "/dev/null"]
        process.currentDirectoryURL = folder.url
        let binaryFolder = CLIRunner.binaryURL.deletingLastPathComponent().path
        process.environment = environment.merging([
            "PATH": binaryFolder + ":/usr/bin:/bin", "HOME": session.path, "ZDOTDIR": session.path, "TERM": "xterm"
        ]) { _, new in new }
        let keys = Pipe()
        process.standardInput = keys
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        // Keys typed before the line editor starts may be discarded: wait for the first prompt.
        guard Self.wait(seconds: 30, until: { FileManager.default.fileExists(atPath: ready.path) }) else {
            XCTFail("\(kind.rawValue) did not start its line editor within 30 s", file: file, line: line)
            return []
        }
        let typed = lines.map { $0 + (kind == .bash ? "\t\u{15}" : "\u{14}") }.joined()
        keys.fileHandleForWriting.write(Data(typed.utf8))
        var groups: [[String]] = []
        let finished = Self.wait(seconds: 60) {
            groups = Self.groups(in: (try? String(contentsOf: output, encoding: .utf8)) ?? "")
            return groups.count >= lines.count
        }
        keys.fileHandleForWriting.write(Data("exit\r".utf8))
        try? keys.fileHandleForWriting.close()
        _ = Self.wait(seconds: 10) { !process.isRunning }
        XCTAssertTrue(
            finished, "\(kind.rawValue) completed \(groups.count) of \(lines.count) lines within 60 s", file: file,
            line: line)
        return groups
    }

    /// The setup the shell runs before its first prompt.
    package func setupScript(completionScript: String, output: String, ready: String) -> String {
        switch kind {
        case .bash:
            return """
                source '\(completionScript)'
                recorded-completions() {
                    _moya-cli "$@"
                    { printf '%s\\n' "${COMPREPLY[@]}"; echo '\(Self.separator)'; } >> '\(output)'
                    COMPREPLY=()
                }
                complete -F recorded-completions moya-cli
                bind 'set bell-style none'
                PROMPT_COMMAND=": > '\(ready)'"
                PS1='> '
                """
        case .zsh:
            return """
                unsetopt auto_list list_beep beep
                autoload -Uz compinit && compinit -u -D
                source '\(completionScript)'
                # Matches collected with -O/-A/-D are not offered (yet); every other one is recorded, then added.
                compadd() {
                    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
                        builtin compadd "$@"
                        return $?
                    fi
                    local -a recorded
                    builtin compadd -A recorded "$@"
                    (( ${#recorded} )) && print -rl -- "${recorded[@]}" >> '\(output)'
                    builtin compadd "$@"
                }
                record-completions() {
                    zle complete-word
                    print -r -- '\(Self.separator)' >> '\(output)'
                    BUFFER=
                }
                zle -N record-completions
                bindkey '^T' record-completions
                precmd() { : > '\(ready)' }
                PS1='> '
                """
        case .fish:
            return """
                source '\(completionScript)'
                function record-completions
                    complete -C (commandline --cut-at-cursor) | string replace -r '\\t.*' '' >> '\(output)'
                    echo '\(Self.separator)' >> '\(output)'
                    commandline ''
                end
                bind \\ct record-completions
                function fish_prompt; touch '\(ready)'; echo -n '> '; end
                function fish_greeting; end
                # Suggestions as keys arrive would run the completion for every character typed.
                set -g fish_autosuggestion_enabled 0
                """
        }
    }

    /// The completions of each line, split at the separators.
    package static func groups(in output: String) -> [[String]] {
        var groups: [[String]] = []
        var current: [String] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == separator {
                groups.append(current)
                current = []
            } else if !line.isEmpty {
                current.append(line)
            }
        }
        return groups
    }

    package static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }
}
