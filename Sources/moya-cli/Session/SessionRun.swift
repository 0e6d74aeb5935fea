import MoyaKit
import Sending
import TargetModel
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `moya-cli session list|show|clear API [NAME]`: the files `--session` keeps (`SessionFiles`).
struct SessionRun {
    var action: String
    var api: String
    var name: String?
    /// `--reveal`: values printed, not `<redacted>`.
    var reveals: Bool

    func run(environment: [String: String]) throws {
        guard TargetFileValidator.isAPIName(api) else {
            throw CommandFailure(.usage, "'\(DisplayText.escaped(api))' is not an API name")
        }
        if let name, !SessionFiles.isValidName(name) {
            throw CommandFailure(.usage, "'\(DisplayText.escaped(name))' is not a session name")
        }
        guard let root = SessionFiles.defaultRoot(environment: environment) else {
            throw CommandFailure(.usage, "neither XDG_STATE_HOME nor HOME is an absolute path: there are no sessions")
        }
        let names = SessionFiles.names(root: root, api: api)
        switch (action, name) {
        case ("list", _):
            StandardStream.output.write(names.map { $0 + "\n" }.joined())
        case ("show", let name?):
            guard names.contains(name) else { throw missing(name, names: names) }
            let warn: @Sendable (String) -> Void = { StandardStream.error.write("moya-cli: warning: \($0)\n") }
            let files = SessionFiles(root: root, name: name, warn: warn)
            let cookies = SessionFiles.lines(at: files.path(of: api), warn: warn).compactMap(Cookie.init(netscapeLine:))
            StandardStream.output.write(cookies.map { describe($0) + "\n" }.joined())
        case ("clear", let name?):
            guard SessionFiles.remove(root: root, api: api, name: name) else { throw missing(name, names: names) }
            StandardStream.error.write("moya-cli: removed the session \(name) of \(api)\n")
        default:
            for name in names where SessionFiles.remove(root: root, api: api, name: name) {
                StandardStream.error.write("moya-cli: removed the session \(name) of \(api)\n")
            }
        }
    }

    private func missing(_ name: String, names: [String]) -> CommandFailure {
        CommandFailure(
            .usage,
            "API '\(api)' has no session '\(name)'"
                + (names.isEmpty ? "" : "; its sessions: " + names.joined(separator: ", ")))
    }

    /// `domain path name=value`, then what else it is: where it goes and how long it lasts.
    private func describe(_ cookie: Cookie) -> String {
        var notes = [cookie.includesSubdomains ? "and subdomains" : "host only"]
        if cookie.isSecure { notes.append("secure") }
        notes.append(
            cookie.expires == 0
                ? "until the session ends"
                : "expires " + Date(timeIntervalSince1970: Double(cookie.expires)).formatted(.iso8601))
        let value = reveals ? cookie.value : "<redacted>"
        return DisplayText.escaped(
            "\(cookie.domain) \(cookie.path) \(cookie.name)=\(value) (\(notes.joined(separator: ", ")))")
    }
}
