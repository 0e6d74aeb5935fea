import ArgumentParser
import MoyaKit
import TargetModel
import TargetServe
import TargetSpec
import TextSafety

// `serve`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into Serve+Generated.swift (`make options`).
extension MoyaCommand.Serve {
    static let configuration = CommandConfiguration(
        abstract: "Serve the samples of APIs over HTTP: a mock server from the target files.",
        discussion: """
            Answers each case of the APIs named (every API found, by default) at its method and path, \
            under its base URL's path, with its default sample, its placeholders filled from the request. \
            Values in the path and query are checked as `call` checks them (400 when wrong or missing). \
            `Prefer: example=NAME` or `Prefer: code=404` picks a sample per request. For a page on another \
            origin: CORS is on (preflights 204, the origin echoed with credentials; --cors-origin limits it, \
            --no-cors turns it off); a body the case declares is checked (400 malformed JSON, 422 a value \
            missing, of the wrong type or outside its enum, as application/problem+json; --no-validate); a \
            case with auth answers 401 with WWW-Authenticate until a credential of its kind comes (--no-auth). \
            --proxy forwards what no case answers (and Prefer: proxy) to the live API with its auth; with \
            --record the live answer becomes the case's sample. Each request is logged on stderr. Exit codes: 64 unknown API, environment or sample, 65 invalid target file \
            or clashing routes, 74 cannot listen, 130/143 stopped by Ctrl-C/SIGTERM; see moya-cli(1).
            """
    )

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        if let delay = delay?.value, !(0...SessionConfiguration.maximumInterval).contains(delay) {
            throw ValidationError(
                "--delay must be a number of seconds from 0 to \(Int(SessionConfiguration.maximumInterval))")
        }
        if record, !proxy { throw ValidationError("serve --record records live answers; add --proxy") }
        if let proxyURL,
            !(URLOrigin.origin(of: proxyURL).map { $0.hasPrefix("http://") || $0.hasPrefix("https://") } ?? false)
        {
            throw ValidationError(
                "--proxy='\(DisplayText.escaped(proxyURL))' is not an http or https URL (--proxy=https://api.example/v1)"
            )
        }
        if noCORS, !corsOrigins.isEmpty { throw ValidationError("--cors-origin and --no-cors contradict each other") }
        for origin in corsOrigins where !Self.isOrigin(origin) {
            throw ValidationError(
                "--cors-origin '\(DisplayText.escaped(origin))' is not an origin: write scheme://host[:port], "
                    + "as a browser sends it (http://localhost:3000)")
        }
    }

    /// `arguments` as ArgumentParser reads them: `--proxy=URL` as the hidden `--proxy-url=URL`
    /// (GNU's convention: the URL only after `=`, so `--proxy github` keeps `github` an API).
    static func spelledForArgumentParser(_ arguments: [String]) -> [String] {
        var spelled: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return spelled + arguments[index...] }
            if argument.hasPrefix("--proxy=") {
                spelled += ["--proxy", "--proxy-url=" + argument.dropFirst("--proxy=".count)]
            } else {
                spelled.append(argument)
            }
        }
        return spelled
    }

    /// `http://localhost:3000`: http or https, a host, an optional port, no path.
    static func isOrigin(_ text: String) -> Bool {
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, ["http", "https"].contains(parts[0].lowercased()), !parts[1].isEmpty else {
            return false
        }
        return parts[1].utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && !"/?#@,\\".utf8.contains(byte)
        }
    }

    func run() throws {
        try reportingFailures {
            try ServeRun(command: self).run()
        }
    }
}
