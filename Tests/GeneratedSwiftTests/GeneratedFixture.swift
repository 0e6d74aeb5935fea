import Foundation
import MoyaKit

/// A target file whose generated enum is committed in `Generated/`: where it is, and how a test
/// gives the enum and `moya-cli call` the same credentials and variables.
struct GeneratedFixture {
    var api: String
    /// The folder holding the target file (and the files it names), from the repository root.
    var folder: String
    /// The committed file, in `Generated/`.
    var sourceFile: String
    /// The environment `moya-cli call` gets: the variables the file reads, allowed.
    var environment: [String: String]
    /// Options `moya-cli call` needs beside the example's words (`--bearer` where the token comes
    /// from the app).
    var callOptions: [String] = []

    static let all = [
        GeneratedFixture(
            api: "github", folder: "targets", sourceFile: "Github.swift",
            environment: ["GITHUB_TOKEN": "ghp-token \"quoted\""]),
        GeneratedFixture(
            api: "httpbin", folder: "targets", sourceFile: "Httpbin.swift",
            environment: [
                "HTTPBIN_API_KEY": "key-1", "HTTPBIN_USER": "üser", "HTTPBIN_PASSWORD": "pa:ss word",
                "HTTPBIN_TOKEN": "token-2"
            ]),
        GeneratedFixture(
            api: "httpbin-token", folder: "targets", sourceFile: "HttpbinToken.swift",
            environment: ["HTTPBIN_TOKEN": "token-3"]),
        GeneratedFixture(
            api: "httpbin-oauth", folder: "targets", sourceFile: "HttpbinOauth.swift",
            environment: [:], callOptions: ["--bearer", "oauth-token"]),
        GeneratedFixture(
            api: "keyed", folder: "Tests/Fixtures/generate", sourceFile: "Keyed.swift",
            environment: [
                "KEYED_KEY": "k\u{E9}y", "KEYED_PASSWORD": "p:w", "KEYED_TOKEN": "t0k", "KEYED_HOST": "127.0.0.9"
            ]),
        GeneratedFixture(
            api: "self", folder: "Tests/Fixtures/generate", sourceFile: "SelfAPI.swift", environment: [:]),
        GeneratedFixture(
            api: "keywords", folder: "Tests/Fixtures/generate", sourceFile: "Keywords.swift", environment: [:]),
        GeneratedFixture(
            api: "hostile-names", folder: "Tests/Fixtures/generate", sourceFile: "HostileNames.swift",
            environment: [
                "HOSTILE_SECRET": "s3cret \\(x)", "HOSTILE_TOKEN": "tok\"en", "HOSTILE_FALLBACK": "given"
            ])
    ]

    /// The environment with the variables allowed to an untrusted target file.
    var callEnvironment: [String: String] {
        var environment = self.environment
        if !environment.isEmpty {
            environment["MOYA_ALLOW_ENV"] = self.environment.keys.sorted().joined(separator: ":")
        }
        return environment
    }

    /// Sets the generated enum's `Configuration` from `environment` (and `files`, the copy of the
    /// target file's folder), and returns its examples, each with the token `AccessTokenPlugin` sends.
    func configuredExamples(files: URL) -> [(target: any TargetType, arguments: [String])] {
        let value = { (name: String) in environment[name] }
        switch api {
        case "github":
            Github.configuration = .init(githubToken: value("GITHUB_TOKEN"), filesFolder: files)
            return Github.examples.map { ($0.target, $0.arguments) }
        case "httpbin":
            Httpbin.configuration = .init(
                httpbinApiKey: value("HTTPBIN_API_KEY"), httpbinPassword: value("HTTPBIN_PASSWORD"),
                httpbinToken: value("HTTPBIN_TOKEN"), httpbinUser: value("HTTPBIN_USER"), filesFolder: files)
            return Httpbin.examples.map { ($0.target, $0.arguments) }
        case "httpbin-token":
            HttpbinToken.configuration = .init(httpbinToken: value("HTTPBIN_TOKEN"))
            return HttpbinToken.examples.map { ($0.target, $0.arguments) }
        case "httpbin-oauth":
            HttpbinOauth.configuration = .init(accessToken: "oauth-token")
            return HttpbinOauth.examples.map { ($0.target, $0.arguments) }
        case "self":
            return SelfAPI.examples.map { ($0.target, $0.arguments) }
        case "keywords":
            return Keywords.examples.map { ($0.target, $0.arguments) }
        case "keyed":
            // KEYED_USER is not set: the default environment's variable wins over the process's.
            Keyed.configuration = .init(
                keyedHost: value("KEYED_HOST"), keyedKey: value("KEYED_KEY"), keyedPassword: value("KEYED_PASSWORD"),
                keyedToken: value("KEYED_TOKEN"))
            return Keyed.examples.map { ($0.target, $0.arguments) }
        default:
            HostileNames.configuration = .init(
                hostileFallback: value("HOSTILE_FALLBACK"), hostileSecret: value("HOSTILE_SECRET"),
                hostileToken: value("HOSTILE_TOKEN"), filesFolder: files)
            return HostileNames.examples.map { ($0.target, $0.arguments) }
        }
    }

    /// The generated enum's `Samples.named(name, for: target)` (an enum whose cases name no sample has none).
    static func sample(named name: String, for target: any TargetType) -> EndpointSampleResponse? {
        switch target {
        case let target as Github: Github.Samples.named(name, for: target)
        case let target as Httpbin: Httpbin.Samples.named(name, for: target)
        case let target as HostileNames: HostileNames.Samples.named(name, for: target)
        default: nil
        }
    }

    /// The credential the generated enum gives `AccessTokenPlugin` for `target`.
    static func accessToken(for target: any TargetType) -> String {
        switch target {
        case let target as Github: target.accessToken ?? ""
        case let target as Httpbin: target.accessToken ?? ""
        case let target as HttpbinToken: target.accessToken ?? ""
        case let target as HttpbinOauth: target.accessToken ?? ""
        case let target as HostileNames: target.accessToken ?? ""
        case let target as Keyed: target.accessToken ?? ""
        default: ""
        }
    }
}

/// A target sent to another base URL (`moya-cli call --base-url`), everything else its own.
struct Rebased: TargetType {
    var target: any TargetType
    var baseURL: URL
    var path: String { target.path }
    var method: MoyaKit.Method { target.method }
    var task: MoyaKit.Task { target.task }
    var headers: [String: String]? { target.headers }
    var sampleData: Data { target.sampleData }
    var validationType: ValidationType { target.validationType }
    var accessTokenAuthorizable: (any AccessTokenAuthorizable)? { target.accessTokenAuthorizable }
}
