import CLITestSupport
import Foundation
import XCTest

/// The working folder completion is tested in: `./targets` with two APIs, files to complete, and
/// a target folder elsewhere whose name has a space, for `--targets`.
struct CompletionFixture {
    let folder: TemporaryFolder

    /// `else where/` inside the folder: the `other` API, found only through `--targets`.
    var elsewhere: URL { folder.url.appendingPathComponent("else where") }

    /// The environment a user's shell gives the binary: the shipped targets (`github`).
    var environment: [String: String] {
        ["MOYA_TARGETS_PATH": CLIRunner.repositoryRoot.appendingPathComponent("targets").path]
    }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write(
            "targets/local.yaml",
            """
            api: local
            baseURL: http://127.0.0.1:1
            cases:
              search:
                values: [{q: string}, {sort: {enum: [stars, forks, updated], default: stars}}, {draft: {type: bool, default: false}}]
                path: /search
                task: {parameters: {q: "{q}", sort: "{sort}", draft: "{draft}"}, encoding: url}
              submit:
                method: PUT
                values: [{attachment: file}]
                path: /upload
                task: {upload: "{attachment}"}
            """)
        // Values a shell treats specially: a colon (zsh's description separator), a space, a
        // quote, and a command substitution that must never run.
        try folder.write(
            "targets/quirky.yaml",
            """
            api: quirky
            baseURL: http://127.0.0.1:1
            cases:
              pick:
                values: [{mode: {enum: ["a:b", "two words", "x'y", "$(touch PWNED)"]}}]
                path: /pick
                task: {parameters: {mode: "{mode}"}, encoding: url}
            """)
        try folder.write(
            "else where/other.yaml",
            """
            api: other
            baseURL: http://127.0.0.1:1
            cases:
              ping: {path: /ping}
            """)
        try folder.write("files/report.pdf", "pdf")
        try folder.write("files/notes.txt", "text")
        try folder.write("files/deeper/x.bin", "x")
        try folder.write("quirks/my file.txt", "text")
        try folder.write("quirks/c:d.txt", "text")
    }

    /// The completion script moya-cli generates for `shell`.
    func completionScript(_ shell: String) throws -> String {
        let generated = try CLIRunner.run(["--generate-completion-script", shell])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        return generated.stdout
    }

    /// Whether a completion ran the command substitution in `quirky`'s values.
    var commandSubstitutionRan: Bool {
        FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("PWNED").path)
    }
}
