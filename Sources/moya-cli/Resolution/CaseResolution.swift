import ArgumentParser
import MoyaKit
import Sending
import TargetModel
import TargetSpec
import TextSafety

/// From words on the command line to a `DynamicTarget`, with usage errors (exit 64) that say what is valid.
enum CaseResolution {
    /// `API CASE [VALUES...]` (and `--value NAME=VALUE`s) resolved for `request.command`; `nil` when,
    /// with `-h`, the help of the command, the API or the case was printed instead.
    static func resolve(_ request: CaseRequest) throws -> ResolvedCase? {
        let command = request.command
        let loader = request.loader
        let invocation = try CaseInvocation(words: request.words, values: request.values)
        guard let apiName = invocation.api else {
            if request.help {
                StandardStream.output.write(MoyaCommand.helpMessage(for: command.helpCommand()) + "\n")
                return nil
            }
            throw CommandFailure(
                .usage, "missing API and CASE; see 'moya-cli \(command.name) --help' and 'moya-cli list'")
        }
        // With a case named, only that case is kept of the API's file (a large API is validated
        // whole but not held); without one, help and the error list every case.
        let api =
            if let caseName = invocation.caseName {
                try loader.api(named: apiName, keepingOnly: caseName)
            } else {
                try loader.api(named: apiName).1
            }
        guard let caseName = invocation.caseName else {
            if request.help {
                StandardStream.output.write(
                    DisplayText.escaped(
                        CaseHelp.apiHelp(
                            api, command: command.name, access: APIAccess(api, environment: loader.environment),
                            width: helpWidth(loader)),
                        keepingLineBreaks: true))
                return nil
            }
            throw CommandFailure(
                .usage,
                "missing CASE for API '\(api.name)'; valid cases: \(api.cases.map(\.name).joined(separator: ", "))")
        }
        let spec = try caseSpec(named: caseName, in: api)
        if request.help {
            StandardStream.output.write(
                DisplayText.escaped(
                    CaseHelp.caseHelp(
                        spec, api: api, command: command.name, access: APIAccess(api, environment: loader.environment),
                        width: helpWidth(loader)),
                    keepingLineBreaks: true))
            return nil
        }
        return ResolvedCase(
            api: api, spec: spec, arguments: try bind(invocation, for: spec, api: api, command: command))
    }

    /// The terminal's width when help goes to one; `nil` on a pipe (whole lines).
    private static func helpWidth(_ loader: CatalogLoader) -> Int? {
        Terminal.width(of: StandardStream.output.fileDescriptor, environment: loader.environment)
    }

    static func caseSpec(named name: String, in api: APISpec) throws -> CaseSpec {
        do {
            return try api.case(named: name)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    static func bind(_ invocation: CaseInvocation, for spec: CaseSpec, api: APISpec, command: CaseCommand) throws
        -> [String: ArgumentValue]
    {
        let binder = spec.argumentBinder()
        let (arguments, errors) = binder.bindReportingAll(
            positional: invocation.positional, namedWords: invocation.named)
        guard errors.isEmpty else {
            let usage = "usage: moya-cli \(command.name) \(api.name) \(spec.name)" + CaseHelp.valuesSynopsis(spec)
            let messages = errors.map { error in
                guard case .unknownValue(let name, _, _) = error else { return error.description }
                return unknownOptionMessage(name, error: error, spec: spec, command: command)
            }
            throw CommandFailure(.usage, messages.joined(separator: "\nmoya-cli: error: ") + "\n" + usage)
        }
        return arguments
    }

    /// An unknown `--name`: `call` and `curl` read an option they do not know as a value of the
    /// case, so a misspelled option lands here. When it is close to one of the command's
    /// options, that is the likelier mistake, and the message says so.
    static func unknownOptionMessage(_ name: String, error: ArgumentError, spec: CaseSpec, command: CaseCommand)
        -> String
    {
        guard let option = Suggestion.closest(to: "--" + name, in: command.optionNames),
            !spec.values.contains(where: { $0.name == name })
        else {
            return error.description
                + " (an unknown --option is read as a value of the case; '--\(name)' is no option of \(command.name) either)"
        }
        return
            "unknown option '--\(name)'; did you mean '\(option)'? (an unknown --option is read as a value of the case, "
            + "and case '\(spec.name)' has no value '\(name)')"
    }

    /// What `call` and `curl` share: the words resolved (see `resolve`), `--json`/`--data` checked
    /// against the case's task, and its target built; `nil` when help was printed instead.
    static func target(_ request: CaseRequest) throws -> (target: DynamicTarget, resolved: ResolvedCase)? {
        guard var resolved = try resolve(request) else { return nil }
        try request.curlHabits.check(
            command: request.command.name, caseName: "\(resolved.api.name).\(resolved.spec.name)",
            method: resolved.spec.method)
        // After the case and its values, so a typo is reported before a password is asked for.
        resolved.credential = try request.credentials.credential()
        if request.checksOverridesBeforeBuilding {
            try RequestPlugins.checkBodyOverride(request.overrides, task: resolved.spec.task)
        }
        var target = try build(
            resolved, settings: request.settings, accessTokens: request.command.accessTokens(request.settings))
        // The netrc's credential for the host, when nothing else gives one: built again with it.
        if resolved.credential == nil, resolved.api.auth(for: resolved.spec.auth) == nil,
            let credential = try request.credentials.netrcCredential(
                for: target, environment: request.settings.environment)
        {
            resolved.credential = credential
            target = try build(
                resolved, settings: request.settings, accessTokens: request.command.accessTokens(request.settings))
        }
        if !request.checksOverridesBeforeBuilding {
            try RequestPlugins.checkBodyOverride(request.overrides, task: resolved.spec.task)
        }
        return (target, resolved)
    }

    /// The target of `resolved` built as `settings` say; `accessTokens`: the token source, `nil`
    /// for the run's provider.
    static func build(_ resolved: ResolvedCase, settings: TargetSettings, accessTokens: (any AccessTokenSource)? = nil)
        throws -> DynamicTarget
    {
        let spec = resolved.spec
        let download = settings.download
        var builder = TargetFactory(
            request: settings.request, environment: settings.environment, isStubbed: settings.stub.stub
        ).builder(
            for: resolved.api, isStubbed: settings.stub.stub,
            downloadDestination: spec.task.isDownload ? download.path.map { $0 == "-" ? "/dev/stdout" : $0 } : nil,
            overwritesDownloads: download.overwrites)
        if let accessTokens { builder.accessTokens = accessTokens }
        builder.credentialOverride = resolved.credential
        // The values were typed on the command line: `-` or a FIFO there is a stream to send.
        builder.streamsCommandLineFiles = true
        do {
            return try builder.target(for: spec, arguments: resolved.arguments, sampleName: settings.stub.sample)
        } catch .accessToken(let error) {
            throw AccessTokens.failure(error)
        } catch .untrustedTLSFiles(let file) {
            throw CommandFailure(.credentials, TargetBuildError.untrustedTLSFiles(file: file).description)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }
}
