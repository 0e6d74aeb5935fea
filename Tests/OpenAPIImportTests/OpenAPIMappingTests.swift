import Foundation
import MoyaKit
import OpenAPIImport
import TargetModel
import TargetSpec
import XCTest

/// Each mapping of moya-cli-import(1), on the shipped petstore spec and on small specs made for one mapping.
final class OpenAPIMappingTests: XCTestCase {
    func testServersBecomeBaseURLAndEnvironmentsWithVariableDefaults() throws {
        let fixture = try ImportFixture(try ImportFixture.spec(named: "petstore.yaml"))
        defer { fixture.remove() }
        XCTAssertEqual(fixture.api.name, "pet-store")
        XCTAssertEqual(fixture.api.baseURL.source, "https://eu.petstore.example/v1")
        XCTAssertEqual(fixture.api.environments.map(\.name), ["production", "local"])
        XCTAssertEqual(fixture.api.defaultEnvironment, "production")
    }

    func testOperationsBecomeCasesNamedFromOperationIdOrMethodAndPath() throws {
        let fixture = try ImportFixture(try ImportFixture.spec(named: "petstore.yaml"))
        defer { fixture.remove() }
        XCTAssertEqual(
            fixture.api.cases.map(\.name),
            [
                "listPets", "createPet", "showPetById", "deletePetsByPetId", "uploadPhoto",
                "updatePetWithForm", "uploadDocument", "getStoreInventory", "addNotes"
            ])
        let list = try fixture.case("listPets")
        XCTAssertEqual(list.description, "List all pets")
        XCTAssertEqual(list.method, "GET")
        XCTAssertEqual(try fixture.case("deletePetsByPetId").method, "DELETE")
        XCTAssertEqual(try fixture.case("uploadPhoto").path.source, "/pets/{pet_id}/photo")
        XCTAssertEqual(fixture.result.operationCount, 9)
    }

    func testDuplicateOperationIdsAreMadeUniqueAndNoted() throws {
        let fixture = try ImportFixture(
            yaml: """
                openapi: 3.1.0
                info: {title: Dupes, version: "1"}
                servers: [{url: "https://example.com"}]
                paths:
                  /a: {get: {operationId: get_thing, responses: {'200': {description: ok}}}}
                  /b: {get: {operationId: getThing, responses: {'200': {description: ok}}}}
                """)
        defer { fixture.remove() }
        XCTAssertEqual(fixture.api.cases.map(\.name), ["getThing", "getThing2"])
        XCTAssertTrue(fixture.result.notes.contains { $0.caseName == "getThing2" && $0.message.contains("was taken") })
        XCTAssertTrue(fixture.result.text.contains("# import: case name 'getThing' was taken"))
    }

    func testParametersBecomeTypedValues() throws {
        let fixture = try ImportFixture(try ImportFixture.spec(named: "petstore.yaml"))
        defer { fixture.remove() }
        let limit = try fixture.value("limit", of: "listPets")
        XCTAssertEqual(limit.type, .int)
        XCTAssertTrue(limit.isOptional)
        XCTAssertEqual(limit.description, "How many items to return at one time (max 100)", "from the $ref'd parameter")
        XCTAssertEqual(try fixture.value("tags", of: "listPets").type, .list(.string))
        let status = try fixture.value("status", of: "listPets")
        XCTAssertEqual(status.type, .enumeration(["available", "pending", "sold"]))
        XCTAssertEqual(status.defaultValue, .enumCase("available"))
        XCTAssertEqual(try fixture.value("petId", of: "showPetById").type, .int)
        XCTAssertTrue(try fixture.value("petId", of: "showPetById").isRequired)
        XCTAssertEqual(try fixture.value("weight", of: "createPet").type, .double)
        XCTAssertEqual(try fixture.value("vaccinated", of: "createPet").type, .bool)
        // Header parameters are case headers; names that are not value names are mapped and noted.
        let header = try XCTUnwrap(try fixture.case("listPets").headers.first { $0.name == "X-Request-ID" })
        XCTAssertEqual(header.value.source, "{X_Request_ID}")
        XCTAssertTrue(
            fixture.result.notes.contains { $0.message == "header parameter 'X-Request-ID' is value 'X_Request_ID'" })
        // deepObject: a value per property.
        XCTAssertEqual(try fixture.value("filter_minAge", of: "listPets").type, .int)
        XCTAssertTrue(fixture.result.text.contains(#""filter[color]": "{filter_color}""#))
    }

    func testParameterExamplesBecomeCheckExamples() throws {
        let fixture = try ImportFixture(try ImportFixture.spec(named: "petstore.yaml"))
        defer { fixture.remove() }
        XCTAssertEqual(try fixture.case("showPetById").examples, [["petId": .int(42)]])
        XCTAssertEqual(try fixture.case("listPets").examples.first?["tags"], .list([.string("dog"), .string("cat")]))
        // Every case that has values has an example, so check covers it.
        for spec in fixture.api.cases where spec.values.contains(where: \.isRequired) {
            XCTAssertFalse(spec.examples.isEmpty, "\(spec.name) has an example")
        }
    }

    func testRefsAreResolvedAndCyclesReported() throws {
        let problems = importProblems(
            """
            openapi: 3.0.0
            info: {title: Loop, version: "1"}
            paths:
              /a:
                get:
                  parameters: [{$ref: '#/components/parameters/a'}]
                  responses: {'200': {description: ok}}
            components:
              parameters:
                a: {$ref: '#/components/parameters/b'}
                b: {$ref: '#/components/parameters/a'}
            """)
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].message.hasPrefix("$ref cycle:"), problems[0].message)
        XCTAssertEqual(problems[0].pointer, "#/components/parameters/b/$ref")

        let missing = importProblems(
            """
            openapi: 3.0.0
            info: {title: Missing, version: "1"}
            paths:
              /a:
                get:
                  parameters: [{$ref: '#/components/parameters/nope'}]
                  responses: {'200': {description: ok}}
            """)
        XCTAssertEqual(missing.map(\.pointer), ["#/paths/~1a/get/parameters/0/$ref"])
        XCTAssertEqual(missing.first?.mark.line, 6)

        // A recursive schema is fine: its sample stops where the reference would repeat.
        let fixture = try ImportFixture(try ImportFixture.spec(named: "petstore.yaml"))
        defer { fixture.remove() }
        XCTAssertFalse(fixture.result.text.contains("parent:"), "Pet.parent (recursive) is left out of the sample")
    }

    func testRequestBodies() throws {
        let fixture = try ImportFixture(try ImportFixture.spec(named: "petstore.yaml"))
        defer { fixture.remove() }
        // JSON object: top-level properties are values, required ones required, readOnly ones left out.
        let create = try fixture.case("createPet")
        guard case .json(.object(let members)) = create.task else { return XCTFail("json task: \(create.task)") }
        XCTAssertEqual(members.map(\.key), ["name", "tag", "weight", "vaccinated", "nicknames"])
        XCTAssertTrue(try fixture.value("name", of: "createPet").isRequired)
        XCTAssertTrue(try fixture.value("tag", of: "createPet").isOptional)
        XCTAssertTrue(fixture.result.notes.contains { $0.caseName == "createPet" && $0.message.contains("'owner'") })
        // Not an object: one string value with the JSON text.
        guard case .data = try fixture.case("addNotes").task else { return XCTFail("data task") }
        // Form: url-encoded parameters in the body.
        guard
            case .parameters(let form, .url(destination: .httpBody, _, _)) = try fixture.case("updatePetWithForm").task
        else {
            return XCTFail("form task")
        }
        XCTAssertEqual(form.map(\.key), ["name", "status"])
        // Multipart: a file part and a value part.
        guard case .multipart(let parts) = try fixture.case("uploadDocument").task else {
            return XCTFail("multipart task")
        }
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(try fixture.value("file", of: "uploadDocument").type, .file)
        // Binary: a file value sent as the body.
        guard case .dataFile = try fixture.case("uploadPhoto").task else { return XCTFail("dataFile task") }
        XCTAssertTrue(fixture.result.usesExampleUpload)
    }

    func testSecuritySchemesBecomeAuthSchemesWithSecretsFromTheEnvironment() throws {
        // The API name the user chose is the variables' prefix, without MOYA_.
        let fixture = try ImportFixture(
            try ImportFixture.spec(named: "petstore.yaml"),
            options: OpenAPIImportOptions(apiName: "pet-store", exampleUploadFile: "samples/upload.txt"))
        defer { fixture.remove() }
        XCTAssertEqual(fixture.api.authSchemes.map(\.name), ["bearerAuth", "basicAuth", "apiKey", "queryKey"])
        XCTAssertTrue(fixture.result.text.contains(#"token: "${secret:PET_STORE_BEARER_AUTH_TOKEN}""#))
        XCTAssertTrue(fixture.result.text.contains(#"password: "${secret:PET_STORE_BASIC_AUTH_PASSWORD}""#))
        XCTAssertTrue(
            fixture.result.text.contains(
                #"apiKey: {type: apiKey, in: header, name: X-API-Key, key: "${secret:PET_STORE_API_KEY}"}"#))
        XCTAssertTrue(
            fixture.result.text.contains(
                #"queryKey: {type: apiKey, in: query, name: api_key, key: "${secret:PET_STORE_QUERY_KEY}"}"#))
        XCTAssertEqual(try fixture.case("deletePetsByPetId").auth, .none, "security: [] is no auth")
        XCTAssertEqual(try fixture.case("getStoreInventory").auth, .scheme("basicAuth"))
        XCTAssertEqual(try fixture.case("uploadDocument").auth, .scheme("apiKey"))
        XCTAssertEqual(try fixture.case("addNotes").auth, .scheme("queryKey"))
        XCTAssertEqual(try fixture.case("listPets").auth, .inherited, "the document's security is the default")
        // Where the credentials come from is said in a comment and in the result.
        XCTAssertTrue(fixture.result.text.contains("#   PET_STORE_QUERY_KEY "))
        XCTAssertEqual(
            fixture.result.credentials.map(\.name),
            [
                "PET_STORE_BEARER_AUTH_TOKEN", "PET_STORE_BASIC_AUTH_USERNAME",
                "PET_STORE_BASIC_AUTH_PASSWORD", "PET_STORE_API_KEY", "PET_STORE_QUERY_KEY"
            ])
    }

    func testAKeyNextToAnotherSchemeIsASecretHeaderAndCookieKeysACookie() throws {
        let fixture = try ImportFixture(
            yaml: """
                openapi: 3.0.0
                info: {title: Both, version: "1"}
                servers: [{url: "https://example.com"}]
                components:
                  securitySchemes:
                    token: {type: http, scheme: bearer}
                    key: {type: apiKey, in: header, name: X-Key}
                    session: {type: apiKey, in: cookie, name: sid}
                    digest: {type: http, scheme: digest}
                paths:
                  /a:
                    get:
                      operationId: both
                      security: [{token: [], key: []}]
                      responses: {'200': {description: ok}}
                  /b:
                    get:
                      operationId: cookie
                      security: [{session: []}]
                      responses: {'200': {description: ok}}
                """)
        defer { fixture.remove() }
        let both = try fixture.case("both")
        XCTAssertEqual(both.auth, .scheme("token"))
        XCTAssertEqual(both.headers.map(\.name), ["X-Key"])
        XCTAssertEqual(both.headers.first?.value.source, "${secret:MOYA_BOTH_KEY:-}")
        let cookie = try fixture.case("cookie")
        XCTAssertEqual(cookie.auth, .inherited, "no default scheme: no Authorization")
        XCTAssertEqual(cookie.headers.first?.value.source, "sid=${secret:MOYA_BOTH_SESSION_KEY:-}")
        XCTAssertTrue(fixture.result.notes.contains { $0.message.contains("'digest' (http digest) is not imported") })
    }

    func testResponsesBecomeValidationAndOneSamplePerStatus() throws {
        let fixture = try ImportFixture(try ImportFixture.spec(named: "petstore.yaml"))
        defer { fixture.remove() }
        let show = try fixture.case("showPetById")
        XCTAssertEqual(show.validation, .customCodes([200]))
        XCTAssertEqual(show.samples.map(\.name), ["ok", "notFound"])
        guard case .response(404, _, .json) = show.samples[1].sample.outcome else { return XCTFail("404 sample") }
        // The example when there is one (braces kept literally), else made from the schema.
        XCTAssertTrue(fixture.result.text.contains(#"name: "Rex {{the dog}}", price: 12.50"#))
        XCTAssertTrue(fixture.result.text.contains(#"born: "2026-01-01""#), "date format")
        XCTAssertEqual(try fixture.case("updatePetWithForm").validation, .successCodes, "2XX is successCodes")
        guard case .response(204, _, .empty) = try fixture.case("deletePetsByPetId").samples[0].sample.outcome else {
            return XCTFail("204")
        }
    }

    /// Only failures documented: the case says `validation: none`, since a case without
    /// `validation` would fail every status outside 2xx.
    func testAnOperationWithoutASuccessResponseIsWrittenWithValidationNone() throws {
        let fixture = try ImportFixture(
            yaml: """
                openapi: 3.1.0
                info: {title: Failing, version: "1"}
                servers: [{url: "https://example.com"}]
                paths:
                  /gone: {get: {operationId: gone, responses: {'410': {description: gone}}}}
                """)
        defer { fixture.remove() }
        XCTAssertEqual(try fixture.case("gone").validation, ValidationSpec.none)
        XCTAssertTrue(
            fixture.result.notes.contains {
                $0.caseName == "gone" && $0.message == "no success response documented: no validation"
            })
    }

    func testSwagger2IsRead() throws {
        let fixture = try ImportFixture(try ImportFixture.spec(named: "swagger2.json"))
        defer { fixture.remove() }
        XCTAssertEqual(fixture.api.baseURL.source, "https://api.example.com/v2")
        XCTAssertEqual(try fixture.value("userId", of: "getUser").type, .int)
        guard case .json = try fixture.case("createUser").task else { return XCTFail("json body") }
        guard case .multipart = try fixture.case("uploadAvatar").task else {
            return XCTFail("formData with a file is multipart")
        }
        XCTAssertEqual(try fixture.value("ids", of: "listUsers").type, .list(.int))
        XCTAssertTrue(fixture.result.text.contains("arrayEncoding: comma"), "collectionFormat csv")
    }

    func testOnlySelectsByTagOperationIdAndPathGlob() throws {
        let spec = try ImportFixture.spec(named: "petstore.yaml")
        let byTag = try ImportFixture(
            spec, options: OpenAPIImportOptions(only: ["store"], exampleUploadFile: "samples/upload.txt"))
        defer { byTag.remove() }
        XCTAssertEqual(byTag.api.cases.map(\.name), ["getStoreInventory", "addNotes"])
        let byGlob = try ImportFixture(
            spec,
            options: OpenAPIImportOptions(
                only: ["/pets/*/photo", "showPetById"], exampleUploadFile: "samples/upload.txt"))
        defer { byGlob.remove() }
        XCTAssertEqual(byGlob.api.cases.map(\.name), ["showPetById", "uploadPhoto"])
        let deep = try ImportFixture(
            spec, options: OpenAPIImportOptions(only: ["/pets/**"], exampleUploadFile: "samples/upload.txt"))
        defer { deep.remove() }
        XCTAssertEqual(deep.api.cases.count, 7)
        XCTAssertThrowsError(
            try OpenAPIImporter.importDocument(spec, file: "spec.yaml", options: OpenAPIImportOptions(only: ["nope"])))
    }

    func testInvalidSpecsAreLocatedWithJSONPointers() {
        XCTAssertEqual(
            importProblems("just: a map").first?.message,
            "the document is not an OpenAPI description: it has no 'openapi' (or 'swagger') version field")
        XCTAssertEqual(importProblems("openapi: 4.0.0").first?.pointer, "#/openapi")
        let problems = importProblems(
            """
            openapi: 3.0.0
            info: {title: Bad, version: "1"}
            paths:
              /users:
                get:
                  parameters: [{in: query}]
                  responses: {'2000': {description: what}}
              users: {get: {responses: {}}}
            """)
        XCTAssertEqual(
            problems.map(\.pointer),
            ["#/paths/~1users/get/parameters/0", "#/paths/~1users/get/responses/2000", "#/paths/users"])
        XCTAssertEqual(problems.map(\.mark.line), [6, 7, 8])
    }

    func testWhatCannotBeMappedIsACommentNeverASilentDrop() throws {
        let fixture = try ImportFixture(
            yaml: """
                openapi: 3.0.0
                info: {title: Gaps, version: "1"}
                servers: [{url: /api}]
                paths:
                  /search:
                    get:
                      operationId: search
                      parameters:
                        - {name: q, in: query, required: true, schema: {type: object}}
                      responses: {'200': {description: ok}}
                  /things:
                    get:
                      operationId: things
                      parameters:
                        - {name: session, in: cookie, schema: {type: string}}
                        - {name: where, in: query, schema: {$ref: 'other.yaml#/Where'}}
                      responses: {'200': {description: ok}}
                """)
        defer { fixture.remove() }
        XCTAssertEqual(fixture.api.cases.map(\.name), ["things"])
        XCTAssertEqual(fixture.result.skippedOperationCount, 1)
        XCTAssertTrue(
            fixture.result.text.contains("required query parameter 'q' is an object: operation not imported"),
            "skipped operation in the header")
        XCTAssertTrue(fixture.result.text.contains("# import: optional cookie parameter 'session'"))
        XCTAssertTrue(fixture.result.text.contains("# import: external $ref 'other.yaml#/Where' is not followed"))
        XCTAssertEqual(fixture.api.baseURL.source, "${MOYA_GAPS_BASE_URL:-http://localhost}/api", "a relative server")
    }

    func testHostileStringsStayInTheirPlace() throws {
        let fixture = try ImportFixture(
            yaml: """
                openapi: 3.0.0
                info: {title: "Evil \\e[31m\\nnew: line", version: "1"}
                servers: [{url: "https://example.com"}]
                paths:
                  /a:
                    post:
                      operationId: "x\\ny: 1"
                      summary: "line one \\e]0;title\\a\\ninjected: true"
                      parameters:
                        - {name: "X-Evil\\r\\nInjected", in: header, schema: {type: string}}
                        - {name: "${HOME}", in: query, schema: {type: string, default: "${secret:TOKEN}"}}
                      requestBody:
                        content:
                          application/json:
                            schema:
                              type: object
                              properties:
                                "{name}": {type: string, example: "{{x}} ${PATH} $${y}"}
                      responses:
                        '200':
                          description: ok
                          content:
                            application/json:
                              example: {"${HOME}": "${secret:TOKEN} {id} \\u2028"}
                """)
        defer { fixture.remove() }
        let spec = try XCTUnwrap(fixture.api.cases.first)
        XCTAssertEqual(spec.name, "xY1")
        XCTAssertEqual(
            spec.description, "line one ]0;title injected: true",
            "the first paragraph as one line (a wrapped sentence is whole), control characters dropped")
        XCTAssertTrue(spec.headers.allSatisfy { !$0.name.contains("\r") }, "an invalid header name is not a header")
        XCTAssertTrue(fixture.result.notes.contains { $0.message.contains("is not a valid header name") })
        // No ${...} from the spec becomes a reference of the target file.
        XCTAssertTrue(fixture.api.cases.allSatisfy { $0.headers.allSatisfy { $0.value.environmentReferences.isEmpty } })
        guard case .response(_, _, .json(let body)) = spec.samples[0].sample.outcome else {
            return XCTFail("json sample")
        }
        XCTAssertEqual(
            try body.render(arguments: [:]).serializedString(), #"{"${HOME}":"${secret:TOKEN} {id} \#u{2028}"}"#)
        XCTAssertFalse(fixture.result.text.contains("\u{1B}"), "no escape character in the file")
    }
}
