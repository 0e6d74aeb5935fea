import TargetModel
import TextSafety

extension SwiftGenerator {
    /// A fresh expression builder for a case.
    func expressions(for values: [GeneratedValue]) -> CaseExpressions {
        CaseExpressions(typeName: typeName, module: options.module, values: values, names: names)
    }

    /// Notes what `built` used: `Configuration` members and the files folder.
    mutating func note(_ built: CaseExpressions, expression: SwiftExpression) {
        references += built.references
        usesFilesFolder = usesFilesFolder || built.usesFilesFolder
        usesDownloadsFolder = usesDownloadsFolder || built.usesDownloadsFolder
    }

    /// `var name: Type { ... }`: one `return` when every case gives the same expression without
    /// its values, else a `switch` whose cases giving the same expression share a `case` line.
    mutating func writeProperty(
        _ declaration: String, into source: inout SwiftSource,
        _ make: (inout CaseExpressions, CaseSpec) -> SwiftExpression
    ) {
        var branches: [(patterns: [String], expression: SwiftExpression, binds: Bool)] = []
        for (spec, identifier, values) in names.cases {
            var built = expressions(for: values)
            let expression = make(&built, spec)
            note(built, expression: expression)
            let name = "." + SwiftIdentifier.written(identifier)
            if built.used.isEmpty {
                if let index = branches.firstIndex(where: { !$0.binds && $0.expression == expression }) {
                    branches[index].patterns.append(name)
                } else {
                    branches.append(([name], expression, false))
                }
            } else {
                let bindings = values.map {
                    built.used.contains($0.spec.name) ? "let " + SwiftIdentifier.written($0.identifier) : "_"
                }
                branches.append(([name + "(" + bindings.joined(separator: ", ") + ")"], expression, true))
            }
        }
        source.block(access + "var " + declaration) { body in
            if branches.count == 1, !branches[0].binds {
                body.expression(.prefixed("return ", branches[0].expression))
                return
            }
            body.line("switch self {")
            for branch in branches {
                for line in Self.caseLines(branch.patterns, indent: body.indent) { body.line(line) }
                body.indent += 4
                body.expression(.prefixed("return ", branch.expression))
                body.indent -= 4
            }
            body.line("}")
        }
    }

    mutating func writeTargetType(into source: inout SwiftSource) {
        let api = self.api
        let environment = api.defaultEnvironment.flatMap { name in api.environments.first { $0.name == name } }
        source.block("extension " + typeName + ": TargetType") { body in
            writeProperty("baseURL: URL", into: &body) { built, spec in
                let template = spec.baseURL ?? environment?.baseURL ?? api.baseURL
                return .call("GeneratedURL.make", [built.string(template)])
            }
            body.line()
            writeProperty("path: String", into: &body) { built, spec in built.string(spec.path, pathSegment: true) }
            body.line()
            let moduleName = options.module.rawValue
            let unwrapsMethod = options.module == .moyaKit
            writeProperty("method: \(moduleName).Method", into: &body) { _, spec in
                // Another method than the nine is made from its name: a token (validated), so it
                // needs no escaping in a string literal. MoyaKit's Method (swift-http-types) is
                // made by a failable initializer, Moya's (Alamofire's HTTPMethod) by a plain one.
                MethodSemantics.standard.contains(spec.method)
                    ? .atom("." + spec.method.lowercased())
                    : .atom(
                        "\(moduleName).Method(rawValue: \"\(spec.method)\")" + (unwrapsMethod ? "!" : ""))
            }
            body.line()
            writeProperty("task: \(moduleName).Task", into: &body) { built, spec in built.task(spec.task) }
            body.line()
            writeProperty("headers: [String: String]?", into: &body) { built, spec in
                built.headers(api: api, environment: environment, spec: spec)
            }
            body.line()
            writeProperty("sampleData: Data", into: &body) { built, spec in
                built.sampleData(spec.defaultSample?.sample)
            }
            body.line()
            writeProperty("validationType: ValidationType", into: &body) { _, spec in
                switch spec.validation ?? api.validation ?? .successCodes {
                case .none: .atom(".none")
                case .successCodes: .atom(".successCodes")
                case .successAndRedirectCodes: .atom(".successAndRedirectCodes")
                case .customCodes(let codes):
                    .call(".customCodes", [.collection(open: "[", codes.map { .atom(String($0)) }, close: "]")])
                }
            }
        }
    }
}

extension SwiftGenerator {
    /// `case .a, .b:` packed as swift-format packs it: as many patterns a line as fit, the
    /// following lines four spaces further in (relative to the `case`, which is at `switch` depth).
    static func caseLines(_ patterns: [String], indent: Int = 8) -> [String] {
        var lines: [String] = []
        var current = "case "
        for (index, pattern) in patterns.enumerated() {
            let piece = pattern + (index == patterns.count - 1 ? ":" : ",")
            let candidate = current.hasSuffix(" ") ? current + piece : current + " " + piece
            if indent + candidate.count > SwiftExpression.lineLength && current != "case " && current != "    " {
                lines.append(current)
                current = "    " + piece
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines
    }
}
