import ArgumentParser
import MoyaKit
import Sending

// `session`'s configuration, checks and run. Its arguments and flags are declared in
// Sources/OptionSpecs/Declarations and generated into Session+Generated.swift (`make options`).
extension MoyaCommand.Session {
    static let configuration = CommandConfiguration(
        abstract: "List, show or clear the sessions --session keeps (an API's cookies between runs).",
        discussion: """
            Sessions live in $XDG_STATE_HOME/moya-cli/sessions/API/NAME (~/.local/state/moya-cli/sessions), \
            private files of this user. show prints each cookie's domain, path, name and attributes, its \
            value <redacted> unless --reveal. Exit codes: 64 an unknown action, API or session name, or a \
            session that does not exist.
            """
    )

    func validate() throws {
        guard let action = words.first, ["list", "show", "clear"].contains(action) else {
            throw ValidationError("say what to do: list API, show API NAME or clear API [NAME]")
        }
        let expected = action == "show" ? 3...3 : action == "list" ? 2...2 : 2...3
        guard expected.contains(words.count) else {
            throw ValidationError(
                action == "show"
                    ? "show takes an API and a session name"
                    : "\(action) takes an API"
                        + (action == "clear" ? " and, optionally, a session name" : ""))
        }
        if reveal && action != "show" { throw ValidationError("--reveal goes with show") }
    }

    func run() throws {
        try reportingFailures {
            try SessionRun(action: words[0], api: words[1], name: words.count > 2 ? words[2] : nil, reveals: reveal)
                .run(environment: ProcessEnvironment.current)
        }
    }
}
