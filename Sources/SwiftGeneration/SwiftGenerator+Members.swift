import TargetModel
import TextSafety

extension SwiftGenerator {
    /// `AccessTokenAuthorizable` and each case's credential; `false` when no case sends one.
    mutating func writeAuthorization(into source: inout SwiftSource) -> Bool {
        let api = self.api
        let typeName = self.typeName
        let hasAuthorization = api.cases.contains { Self.authorizationType(api.auth(for: $0.auth)) != nil }
        guard hasAuthorization else { return false }
        source.block("extension " + typeName + ": AccessTokenAuthorizable") { body in
            writeProperty("authorizationType: AuthorizationType?", into: &body) { _, spec in
                .atom(Self.authorizationType(api.auth(for: spec.auth)) ?? "nil")
            }
            body.line()
            body.line("/// The credential `AccessTokenPlugin` sends for this case (see the top of this file).")
            writeProperty("accessToken: String?", into: &body) { built, spec in
                switch api.auth(for: spec.auth) {
                case .bearer(let token)?, .custom(_, let token)?:
                    return built.string(token)
                case .basic(let username, let password)?:
                    let pair = Template(
                        segments: username.segments + [.literal(":")] + password.segments,
                        source: username.source + ":" + password.source, mark: username.mark)
                    return .call("Data", [.atom(built.string(pair).flat + ".utf8")], tail: ".base64EncodedString()")
                case .oauth2?, .command?:
                    return .atom(typeName + ".configuration.accessToken")
                case .apiKey?, .digest?, .awsSigV4?, nil:
                    return .atom("nil")
                }
            }
        }
        return true
    }

    static func authorizationType(_ auth: AuthSpec?) -> String? {
        switch auth {
        case .bearer?, .oauth2?, .command?: ".bearer"
        case .basic?: ".basic"
        case .custom(let scheme, _)?: ".custom(" + SwiftLiteral.quoted(scheme) + ")"
        // A digest credential answers a challenge: the app gives it through `CredentialsPlugin`.
        // A SigV4 signature is made per request: an app signs in a plugin's `prepare`.
        case .apiKey?, .digest?, .awsSigV4?, nil: nil
        }
    }

    /// Whether some case's token comes from the app (`oauth2`, `command`).
    var usesAccessToken: Bool {
        api.cases.contains { spec in
            switch api.auth(for: spec.auth) {
            case .oauth2?, .command?: true
            default: false
            }
        }
    }

    /// `Samples`: a function per sample name, answering each case that has a sample of that name
    /// with it and any other case with its default sample.
    mutating func writeSamples(into source: inout SwiftSource) {
        var sampleNames: [String] = []
        for spec in api.cases {
            for sample in spec.samples where sample.name != "default" && !sampleNames.contains(sample.name) {
                sampleNames.append(sample.name)
            }
        }
        guard !sampleNames.isEmpty else { return }
        var taken: Set<String> = ["named"]
        let typeName = self.typeName
        let access = self.access
        source.block("extension " + typeName) { body in
            body.line("/// The named samples of the target file, for an `endpointClosure` that stubs with one of them:")
            body.line("/// `Endpoint(url: ..., sampleResponseClosure: { \(typeName).Samples.ok(target) }, ...)`.")
            body.block(access + "enum Samples") { samples in
                var functions: [(sampleName: String, function: String)] = []
                for sampleName in sampleNames {
                    let function = SwiftIdentifier.unique(SwiftIdentifier.lowerCamel(sampleName), in: &taken)
                    writeSample(sampleName, function: function, into: &samples)
                    samples.line()
                    functions.append((sampleName, function))
                }
                // By the name the file gives it, as `moya-cli call --sample NAME` takes it.
                samples.line("/// The sample named `name` in the target file; `nil` when no case has one of that name.")
                let signature = "static func named(_ name: String, for target: \(typeName)) -> EndpointSampleResponse?"
                samples.block(access + signature) { body in
                    body.line("switch name {")
                    for (sampleName, function) in functions {
                        body.line("case " + SwiftLiteral.quoted(sampleName) + ":")
                        body.line("    return " + SwiftIdentifier.written(function) + "(target)")
                    }
                    body.line("default:")
                    body.line("    return nil")
                    body.line("}")
                }
            }
        }
    }

    private mutating func writeSample(_ sampleName: String, function: String, into source: inout SwiftSource) {
        source.line(
            "/// `" + SwiftLiteral.commentText(sampleName) + "`; a case without it answers with its default sample.")
        var branches: [(pattern: String, expression: SwiftExpression)] = []
        for (spec, identifier, values) in names.cases {
            guard let sample = spec.samples.first(where: { $0.name == sampleName }) else { continue }
            var built = expressions(for: values)
            let expression: SwiftExpression
            switch sample.sample.outcome {
            case .networkError(let kind):
                expression = .atom(
                    ".networkError(NSError(domain: \"NSURLErrorDomain\", code: \(Self.errorCode(kind))))")
            case .response(let status, _, _):
                expression = .call(".networkResponse", [.atom(String(status)), built.sampleData(sample.sample)])
            }
            note(built, expression: expression)
            let name = "." + SwiftIdentifier.written(identifier)
            let bindings = values.map {
                built.used.contains($0.spec.name) ? "let " + SwiftIdentifier.written($0.identifier) : "_"
            }
            branches.append(
                (built.used.isEmpty ? name : name + "(" + bindings.joined(separator: ", ") + ")", expression))
        }
        let target = SwiftIdentifier.written("target")
        source.block(
            access + "static func " + SwiftIdentifier.written(function)
                + "(_ \(target): \(typeName)) -> EndpointSampleResponse"
        ) {
            body in
            body.line("switch \(target) {")
            for branch in branches {
                body.line("case " + branch.pattern + ":")
                body.indent += 4
                body.expression(.prefixed("return ", branch.expression))
                body.indent -= 4
            }
            if branches.count < names.cases.count {
                body.line("default:")
                body.line("    return .networkResponse(200, \(target).sampleData)")
            }
            body.line("}")
        }
    }

    /// The `NSURLErrorDomain` code of a sample's network error.
    static func errorCode(_ kind: SampleErrorKind) -> Int {
        switch kind {
        case .timeout: -1001
        case .cannotResolveHost: -1003
        case .cannotConnect: -1004
        case .connectionReset: -1005
        case .tls: -1200
        case .tooManyRedirects: -1007
        }
    }
}
