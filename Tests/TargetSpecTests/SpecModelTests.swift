import MoyaKit
import PositionedYAML
import TargetModel
import TargetSpec
import XCTest

/// A realistic target file loads into the expected model.
final class SpecModelTests: XCTestCase {
    static let github = """
        api: github
        description: GitHub's REST API
        baseURL: https://api.github.com
        headers:
          Accept: application/vnd.github+json
          X-Tenant: "${TENANT:-public}"
        auth: {type: bearer, token: "${GITHUB_TOKEN}"}
        validation: successCodes
        timeout: 30
        connectTimeout: 2.5
        environments:
          production: {baseURL: https://api.github.com}
          staging:
            baseURL: https://staging.example.com
            variables: {TENANT: test}
            headers: {X-Env: staging}
        defaultEnvironment: production
        cases:
          zen:
            description: A random sentence
            path: /zen
            auth: none
            sample: "Half measures are as bad as nothing at all."
          userProfile:
            values: [{name: string}]
            path: /users/{name}
            sample: {json: {login: "{name}", id: 100}}
            examples: [[ashfurrow]]
          userRepositories:
            values:
              - name: string
              - per_page: {type: int, default: 30, description: "Results per page"}
              - state: {enum: [open, closed, all], default: open}
              - ratio: {type: double, default: 1}
            path: /users/{name}/repos
            headers: {X-Ratio: "{ratio}"}
            task: {parameters: {per_page: "{per_page}", state: "{state}", sort: pushed}, encoding: url, arrayEncoding: noBrackets}
            validation: [200, 304]
            timeout: 5
            samples:
              ok: {json: [{name: Repo Name}]}
              missing: {status: 404, json: {message: Not Found}, headers: {X-RateLimit-Remaining: "59"}}
              offline: {error: connectionRefused}
            examples:
              - [ashfurrow]
              - {name: ashfurrow, per_page: 5, state: closed}
          createIssue:
            values: [{repo: string}, {title: string}, {draft: {type: bool, default: false}}]
            method: POST
            path: /repos/{repo}/issues
            auth: bearer
            task:
              json: {title: "Bug: {title}", draft: "{draft}", labels: [bug], weight: 1.5, assignee: null}
              query: {notify: true}
            sample: {status: 201, text: "created {title}"}
        """

    func testRealisticFileLoadsIntoTheModel() throws {
        let result = SpecTest.load(Self.github, file: "targets/github.yaml")
        XCTAssertEqual(result.diagnostics, [], result.renderedDiagnostics())
        let api = try XCTUnwrap(result.api)
        XCTAssertEqual(api.name, "github")
        XCTAssertEqual(api.file, "targets/github.yaml")
        XCTAssertEqual(api.directory, "targets")
        XCTAssertEqual(api.description, "GitHub's REST API")
        XCTAssertEqual(api.baseURL.literalText, "https://api.github.com")
        XCTAssertEqual(api.headers.map(\.name), ["Accept", "X-Tenant"])
        XCTAssertEqual(
            api.headers[1].value.environmentReferences,
            [
                Template.EnvironmentReference(
                    name: "TENANT", fallback: "public", isSecret: false, mark: Mark(line: 6, column: 14))
            ])
        guard case .bearer(let token) = api.auth else {
            return XCTFail("expected bearer auth, got \(String(describing: api.auth))")
        }
        XCTAssertEqual(token.environmentReferences.map(\.name), ["GITHUB_TOKEN"])
        XCTAssertTrue(token.containsSecret, "everything in auth is secret")
        XCTAssertEqual(api.validation, .successCodes)
        XCTAssertEqual(api.timeout, 30)
        XCTAssertEqual(api.connectTimeout, 2.5)
        XCTAssertEqual(api.environments.map(\.name), ["production", "staging"])
        XCTAssertEqual(api.environments[1].variables.map(\.name), ["TENANT"])
        XCTAssertEqual(api.environments[1].headers.map(\.name), ["X-Env"])
        XCTAssertEqual(api.defaultEnvironment, "production")
        XCTAssertEqual(api.cases.map(\.name), ["zen", "userProfile", "userRepositories", "createIssue"])

        let zen = try api.case(named: "zen")
        XCTAssertEqual(zen.description, "A random sentence")
        XCTAssertEqual(zen.method, "GET")
        XCTAssertEqual(zen.auth, CaseAuthMode.none)
        XCTAssertEqual(zen.task, .plain)
        XCTAssertEqual(zen.mark, Mark(line: 19, column: 3))
        XCTAssertEqual(zen.samples.map(\.name), ["default"])
        guard case .response(200, [], .text(let text)) = zen.samples[0].sample.outcome else {
            return XCTFail("\(zen.samples)")
        }
        XCTAssertEqual(text.literalText, "Half measures are as bad as nothing at all.")

        let profile = try api.case(named: "userProfile")
        XCTAssertEqual(profile.values, [ValueSpec(name: "name", type: .string, mark: Mark(line: 25, column: 15))])
        XCTAssertEqual(
            profile.path.segments, [.literal("/users/"), .placeholder(name: "name", mark: Mark(line: 26, column: 18))])
        XCTAssertEqual(profile.auth, .inherited)
        XCTAssertEqual(profile.examples, [["name": .string("ashfurrow")]])
        guard case .response(200, [], .json(.object(let members))) = profile.samples[0].sample.outcome else {
            return XCTFail()
        }
        XCTAssertEqual(members.map(\.key), ["login", "id"])
        XCTAssertEqual(members[0].value, .placeholder(name: "name", mark: Mark(line: 27, column: 29)))
        XCTAssertEqual(members[1].value, .int(100))

        let repositories = try api.case(named: "userRepositories")
        XCTAssertEqual(repositories.values.map(\.name), ["name", "per_page", "state", "ratio"])
        XCTAssertEqual(repositories.values[1].type, .int)
        XCTAssertEqual(repositories.values[1].defaultValue, .int(30))
        XCTAssertEqual(repositories.values[1].description, "Results per page")
        XCTAssertEqual(repositories.values[2].type, .enumeration(["open", "closed", "all"]))
        XCTAssertEqual(repositories.values[2].defaultValue, .enumCase("open"))
        XCTAssertEqual(repositories.values[3].defaultValue, .double(1))
        XCTAssertEqual(repositories.validation, .customCodes([200, 304]))
        XCTAssertEqual(repositories.timeout, 5)
        guard case .parameters(let parameters, let encoding) = repositories.task else {
            return XCTFail("\(repositories.task)")
        }
        XCTAssertEqual(parameters.map(\.key), ["per_page", "state", "sort"])
        guard case .string(let sort) = parameters[2].value else { return XCTFail("\(parameters[2])") }
        XCTAssertEqual(sort.literalText, "pushed")
        XCTAssertEqual(parameters[0].value, .placeholder(name: "per_page", mark: Mark(line: 37, column: 36)))
        XCTAssertEqual(
            encoding, .url(destination: .methodDependent, arrayEncoding: .noBrackets, boolEncoding: .numeric))
        XCTAssertEqual(repositories.samples.map(\.name), ["ok", "missing", "offline"])
        XCTAssertEqual(repositories.defaultSample?.name, "ok")
        XCTAssertEqual(repositories.samples[2].sample.outcome, .networkError(.cannotConnect))
        guard case .response(404, let headers, _) = repositories.samples[1].sample.outcome else { return XCTFail() }
        XCTAssertEqual(headers.map(\.name), ["X-RateLimit-Remaining"])
        XCTAssertEqual(
            repositories.examples,
            [
                ["name": .string("ashfurrow"), "per_page": .int(30), "state": .enumCase("open"), "ratio": .double(1)],
                ["name": .string("ashfurrow"), "per_page": .int(5), "state": .enumCase("closed"), "ratio": .double(1)]
            ])

        let issue = try api.case(named: "createIssue")
        XCTAssertEqual(issue.method, "POST")
        XCTAssertEqual(issue.auth, .explicit(.bearer))
        guard case .compositeData(.json(.object(let body)), let query) = issue.task else {
            return XCTFail("\(issue.task)")
        }
        XCTAssertEqual(body.map(\.key), ["title", "draft", "labels", "weight", "assignee"])
        XCTAssertEqual(body[3].value, .double(1.5))
        XCTAssertEqual(body[4].value, .null)
        XCTAssertEqual(query.map(\.key), ["notify"])
        XCTAssertEqual(query[0].value, .bool(true))
        let rendered = try JSONTemplate.object(body).render(arguments: ["title": .string("crash"), "draft": .bool(true)]
        )
        XCTAssertEqual(
            rendered.serializedString(),
            #"{"title":"Bug: crash","draft":true,"labels":["bug"],"weight":1.5,"assignee":null}"#)
        guard case .response(201, [], .text(let created)) = issue.samples[0].sample.outcome else { return XCTFail() }
        XCTAssertEqual(try created.render(arguments: ["title": .string("x")]), "created x")
    }

    func testDefaultsWhenKeysAreAbsent() throws {
        let result = SpecTest.load(
            "baseURL: http://localhost:8080/v1\ncases:\n  ping: {path: /ping, sample: pong}\n",
            file: "/etc/moya/local-api.yml")
        let api = try XCTUnwrap(result.api, result.renderedDiagnostics())
        XCTAssertEqual(api.name, "local-api", "the name defaults to the file name without extension")
        XCTAssertEqual(api.directory, "/etc/moya")
        XCTAssertNil(api.validation, "absent, which is not 'validation: none'")
        let target = try TargetBuilder(api: api, processEnvironment: [:]).target(for: api.cases[0], arguments: [:])
        XCTAssertEqual(target.validationType, .successCodes, "a file without 'validation' fails a status outside 2xx")
        XCTAssertNil(api.timeout, "no total limit: the idle one ends a stalled transfer")
        XCTAssertEqual(api.idleTimeout, 60)
        XCTAssertNil(api.redirects)
        XCTAssertNil(target.timeout)
        XCTAssertEqual(target.idleTimeout, 60)
        XCTAssertEqual(target.redirects, .follow)
        XCTAssertEqual(api.connectTimeout, 10)
        XCTAssertNil(api.auth)
        XCTAssertEqual(api.cases[0].validation, nil)
        XCTAssertEqual(api.cases[0].timeout, nil)
        XCTAssertEqual(api.cases[0].task, .plain)
    }

    func testCaseAndAPILookupsSuggestNames() throws {
        let api = try XCTUnwrap(SpecTest.load(Self.github).api)
        XCTAssertThrowsError(try api.case(named: "userProfil")) { error in
            XCTAssertEqual("\(error)", "unknown case 'userProfil' in API 'github'; did you mean 'userProfile'?")
        }
        XCTAssertThrowsError(try api.case(named: "x")) { error in
            XCTAssertEqual(
                "\(error)",
                "unknown case 'x' in API 'github'; valid cases: zen, userProfile, userRepositories, createIssue")
        }
        XCTAssertThrowsError(try api.environment(named: "stagin")) { error in
            XCTAssertEqual("\(error)", "unknown environment 'stagin' in API 'github'; did you mean 'staging'?")
        }
        let repositories = try api.case(named: "userRepositories")
        XCTAssertEqual(try repositories.sample(named: "missing").name, "missing")
        XCTAssertThrowsError(try repositories.sample(named: "ok2")) { error in
            XCTAssertEqual("\(error)", "unknown sample 'ok2' in case 'userRepositories'; did you mean 'ok'?")
        }
    }

    /// A case's fields are shared between copies until one is changed (copy on write).
    func testACopiedCaseChangesAlone() throws {
        let api = try XCTUnwrap(SpecTest.load(Self.github).api)
        let original = try XCTUnwrap(api.cases.first)
        var copy = original
        XCTAssertEqual(copy, original)
        XCTAssertEqual(copy.hashValue, original.hashValue)
        copy.auth = .inherited
        copy.description = "changed"
        copy.values.append(ValueSpec(name: "extra", type: .string, mark: Mark(line: 1, column: 1)))
        XCTAssertNotEqual(copy, original)
        XCTAssertEqual(original.description, "A random sentence")
        XCTAssertEqual(original.auth, CaseAuthMode.none)
        XCTAssertEqual(original.values.count + 1, copy.values.count)
        XCTAssertEqual(api.cases.first, original, "the API's own case is unchanged")
        var again = copy
        again.description = "changed"
        XCTAssertEqual(again, copy, "equal fields are equal, whatever box holds them")
    }

    /// An API's fields are shared between copies until one is changed (copy on write), as each
    /// builder and render context holds one.
    func testACopiedAPIChangesAlone() throws {
        let original = try XCTUnwrap(SpecTest.load(Self.github).api)
        var copy = original
        XCTAssertEqual(copy, original)
        XCTAssertEqual(copy.hashValue, original.hashValue)
        copy.cases.removeLast()
        copy.auth = nil
        copy.environmentVariables.append("EXTRA")
        XCTAssertNotEqual(copy, original)
        XCTAssertEqual(original.cases.count, copy.cases.count + 1)
        XCTAssertNotNil(original.auth)
        XCTAssertFalse(original.environmentVariables.contains("EXTRA"))
        XCTAssertEqual(MemoryLayout<APISpec>.size, MemoryLayout<Int>.size, "one reference")
    }

    /// A target's fields are shared between copies until one is changed (copy on write), as a
    /// provider and its plugins pass it around.
    func testACopiedTargetChangesAlone() throws {
        let api = try XCTUnwrap(SpecTest.load(Self.github).api)
        let spec = try XCTUnwrap(api.cases.first { $0.name == "userProfile" })
        let original = try TargetBuilder(api: api, processEnvironment: ["GITHUB_TOKEN": "t0k3n"])
            .target(for: spec, arguments: ["name": .string("ashfurrow")])
        var copy = original
        copy.urlOverride = "https://api.github.com/users/other"
        copy.orderedHeaders.append((name: "X-More", value: "1"))
        copy.secretValues = []
        XCTAssertEqual(original.url, "https://api.github.com/users/ashfurrow")
        XCTAssertEqual(copy.url, "https://api.github.com/users/other")
        XCTAssertFalse(original.orderedHeaders.contains { $0.name == "X-More" })
        XCTAssertTrue(original.secretValues.contains("t0k3n"))
        XCTAssertEqual(copy.secretValues, [])
        let existential: any TargetType = original
        XCTAssertEqual(existential.path, original.path)
        XCTAssertEqual(
            MemoryLayout<DynamicTarget>.size, MemoryLayout<Int>.size, "one reference: fits an existential's buffer")
    }
}
