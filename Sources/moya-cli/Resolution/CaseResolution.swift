import ArgumentParser
import MoyaKit
import TargetSpec
import TargetModel

/// From words on the command line to a `DynamicTarget`, with usage errors (exit 64) that say what is valid.
enum CaseResolution {
    /// What `call` and `curl` found in their words: help already printed, or a case with bound values.
    enum Resolved {
        case helpPrinted
        case invocation(api: APISpec, spec: CaseSpec, arguments: [String: ArgumentValue])
    }

    /// `API CASE [VALUES...]` (and `--value NAME=VALUE`s) resolved for `command` (`call` or `curl`); with `-h`, the help of the
    /// command, the API or the case is printed instead.
    ///
    /// `command` is asked for only to print its help: naming an ArgumentParser command's type makes
    /// its runtime metadata, which a call parsed by `DirectParser` does without.
    static func resolve(
        _ words: [String], values: [String] = [], command: @autoclosure () -> any ParsableCommand.Type, name: String, help: Bool,
        loader: CatalogLoader
    ) throws -> Resolved {
        let invocation = try CaseInvocation(words: words, values: values)
        guard let apiName = invocation.api else {
            if help {
                StandardStream.output.write(MoyaCommand.helpMessage(for: command()) + "\n")
                return .helpPrinted
            }
            throw CommandFailure(.usage, "missing API and CASE; see 'moya-cli \(name) --help' and 'moya-cli list'")
        }
        // With a case named, only that case is kept of the API's file (a large API is validated
        // whole but not held); without one, help and the error list every case.
        let api = if let caseName = invocation.caseName {
            try loader.api(named: apiName, keepingOnly: caseName)
        } else {
            try loader.api(named: apiName).1
        }
        guard let caseName = invocation.caseName else {
            if help {
                StandardStream.output.write(DisplayText.escaped(CaseHelp.apiHelp(api, command: name, access: APIAccess(api, environment: loader.environment)), keepingLineBreaks: true))
                return .helpPrinted
            }
            throw CommandFailure(.usage, "missing CASE for API '\(api.name)'; valid cases: \(api.cases.map(\.name).joined(separator: ", "))")
        }
        let spec = try caseSpec(named: caseName, in: api)
        if help {
            StandardStream.output.write(DisplayText.escaped(CaseHelp.caseHelp(spec, api: api, command: name, access: APIAccess(api, environment: loader.environment)), keepingLineBreaks: true))
            return .helpPrinted
        }
        return .invocation(api: api, spec: spec, arguments: try bind(invocation, for: spec, api: api, command: name))
    }

    static func caseSpec(named name: String, in api: APISpec) throws -> CaseSpec {
        do {
            return try api.case(named: name)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    static func bind(_ invocation: CaseInvocation, for spec: CaseSpec, api: APISpec, command: String) throws -> [String: ArgumentValue] {
        let binder = spec.argumentBinder()
        let (arguments, errors) = binder.bindReportingAll(positional: invocation.positional, namedWords: invocation.named)
        guard errors.isEmpty else {
            let usage = "usage: moya-cli \(command) \(api.name) \(spec.name)" + CaseHelp.valuesSynopsis(spec)
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
    static func unknownOptionMessage(_ name: String, error: ArgumentError, spec: CaseSpec, command: String) -> String {
        let options = optionNames(of: command)
        guard let option = Suggestion.closest(to: "--" + name, in: options), !spec.values.contains(where: { $0.name == name }) else {
            return error.description + " (an unknown --option is read as a value of the case; '--\(name)' is no option of \(command) either)"
        }
        return "unknown option '--\(name)'; did you mean '\(option)'? (an unknown --option is read as a value of the case, "
            + "and case '\(spec.name)' has no value '\(name)')"
    }

    /// The long options of `call` or `curl`.
    static func optionNames(of command: String) -> [String] {
        let names = command == "curl" ? CurlInvocation.table.flatMap(\.names) : CallInvocation.table.flatMap(\.names)
        return names.filter { $0.hasPrefix("--") }
    }

    /// What `call` and `curl` share: the words resolved (see `resolve`), the case's values bound and
    /// its target built; `nil` when help was printed instead.
    static func target(
        words: [String], values: [String], command: @autoclosure () -> any ParsableCommand.Type, name: String, help: Bool,
        targets: TargetOptions, request: RequestOptions, isStubbed: Bool, sample: String?, output: String?, force: Bool,
        environment: [String: String]
    ) throws -> (target: DynamicTarget, spec: CaseSpec)? {
        let loader = CatalogLoader(options: targets, environment: environment)
        let resolved = try resolve(words, values: values, command: command(), name: name, help: help, loader: loader)
        guard case .invocation(let api, let spec, let arguments) = resolved else { return nil }
        let target = try build(spec, api: api, arguments: arguments, environment: environment, request: request,
                               isStubbed: isStubbed, sample: sample, output: output, force: force,
                               accessTokens: name == "curl" ? AccessTokens.source(forCurl: request, environment: environment) : nil)
        return (target, spec)
    }

    static func build(
        _ spec: CaseSpec, api: APISpec, arguments: [String: ArgumentValue], environment: [String: String], request: RequestOptions,
        isStubbed: Bool, sample: String?, output: String?, force: Bool, accessTokens: (any AccessTokenSource)? = nil
    ) throws -> DynamicTarget {
        var builder = builder(api: api, environment: environment, request: request, isStubbed: isStubbed,
                              downloadDestination: spec.task.isDownload ? output.map { $0 == "-" ? "/dev/stdout" : $0 } : nil,
                              overwritesDownloads: force)
        if let accessTokens { builder.accessTokens = accessTokens }
        do {
            return try builder.target(for: spec, arguments: arguments, sampleName: sample)
        } catch .accessToken(let error) {
            throw AccessTokens.failure(error)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    /// The builder `call`, `curl` and `check` share: the environment `--env` names, `--base-url`,
    /// where a download goes (`nil`: where the case says), and the run's token provider.
    static func builder(
        api: APISpec, environment: [String: String], request: RequestOptions, isStubbed: Bool,
        downloadDestination: String?, overwritesDownloads: Bool
    ) -> TargetBuilder {
        var builder = TargetBuilder(
            api: api, processEnvironment: environment, environmentName: request.environment, baseURLOverride: request.baseURL,
            isStubbed: isStubbed, downloadDestinationOverride: downloadDestination, overwritesDownloads: overwritesDownloads,
            accessTokens: isStubbed ? nil : AccessTokens.provider(environment: environment, request: request))
        FileEnvironment.restrict(&builder, environment: environment)
        return builder
    }
}

