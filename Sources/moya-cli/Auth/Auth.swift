import ArgumentParser
import MoyaKit
import TargetAuth
import TargetModel
import TargetSpec
import TextSafety

// `auth`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into Auth+Generated.swift (`make options`).
extension MoyaCommand.Auth {
    static let configuration = CommandConfiguration(
        abstract: "Show the state of an API's credentials, or forget its cached OAuth 2.0 tokens (--logout).",
        discussion: """
            For each auth scheme of API (or the one --scheme names): its type, and for oauth2 the token \
            URL, client, scopes and whether a token is cached and until when. Nothing is sent and no \
            command is run. Tokens are never printed unless --show-secrets. --logout deletes the API's \
            cached tokens from $XDG_CACHE_HOME/moya-cli (~/.cache/moya-cli). Exit codes: 0 done, 64 unknown \
            API or scheme, 65 invalid target file; see moya-cli(1).
            """
    )

    func run() throws {
        try reportingFailures {
            let environment = ProcessEnvironment.current
            let loader = CatalogLoader(options: targetArguments.options, environment: environment)
            let (_, spec) = try loader.api(named: api)
            let report = try AuthStatus(
                api: spec, schemeName: scheme, environment: environment, environmentName: environmentName,
                showsSecrets: showSecrets)
            if logout {
                StandardStream.output.write(report.logout())
            } else {
                StandardStream.output.write(DisplayText.escaped(try report.render(), keepingLineBreaks: true))
            }
        }
    }
}
