import PositionedYAML
import TargetModel
import TargetSpec
import XCTest

/// Task checks, each asserted with its full rendered diagnostic, and the task kinds they build.
final class SpecTaskValidationTests: XCTestCase {
    private func task(_ yaml: String, values: String = "", method: String = "POST", directory: String? = nil) -> (
        TaskSpec?, String
    ) {
        let body =
            (values.isEmpty ? "" : "values: \(values)\n") + "path: /a\nmethod: \(method)\ntask: \(yaml)\nsample: ok"
        let result = SpecTest.load(SpecTest.file(case: body), directory: directory)
        return (result.api?.cases.first?.task, SpecTest.errors(SpecTest.file(case: body), directory: directory))
    }

    func testTwoBodyKeys() {
        XCTAssertEqual(
            task("{data: x, json: {a: 1}}").1,
            """
            t.yaml:6:21: error: a task has exactly one of data, dataFile, json, parameters, upload, multipart, download (download may add parameters); found 'data' and 'json'
                    task: {data: x, json: {a: 1}}
                                    ^

            """)
    }

    func testBodyOnGETHeadOrTrace() {
        XCTAssertEqual(
            task("{json: {a: 1}}", method: "GET").1,
            """
            t.yaml:6:12: error: a GET request cannot carry a body; 'json' sends one; use POST, PUT or PATCH
                    task: {json: {a: 1}}
                           ^

            """)
        XCTAssertEqual(
            task("{parameters: {a: 1}, encoding: json}", method: "HEAD").1,
            """
            t.yaml:6:32: error: a HEAD request cannot carry a body; encoding json puts the parameters in the body; use encoding url (query string) or another method
                    task: {parameters: {a: 1}, encoding: json}
                                               ^

            """)
        XCTAssertEqual(
            task("{parameters: {a: 1}, destination: httpBody}", method: "TRACE").1,
            """
            t.yaml:6:12: error: a TRACE request cannot carry a body; destination httpBody puts the parameters in the body; use encoding url (query string) or another method
                    task: {parameters: {a: 1}, destination: httpBody}
                           ^

            """)
        let (plain, errors) = task("{parameters: {a: 1}}", method: "GET")
        XCTAssertEqual(errors, "", "url encoding, method dependent: the query for GET")
        XCTAssertEqual(plain, .parameters([JSONTemplate.Member(key: "a", value: .int(1))], encoding: .urlDefault))
    }

    func testEncodingOptionsWithTheWrongEncoding() {
        XCTAssertEqual(
            task("{parameters: {a: 1}, encoding: json, arrayEncoding: noBrackets, format: xml}").1,
            """
            t.yaml:6:48: error: 'arrayEncoding' is an option of encoding url, not json
                    task: {parameters: {a: 1}, encoding: json, arrayEncoding: noBrackets, format: xml}
                                                               ^
            t.yaml:6:75: error: 'format' is an option of encoding propertyList, not json
                    task: {parameters: {a: 1}, encoding: json, arrayEncoding: noBrackets, format: xml}
                                                                                          ^

            """)
        XCTAssertEqual(
            task("{data: x, encoding: url}").1,
            """
            t.yaml:6:21: error: 'encoding' goes with 'parameters'
                    task: {data: x, encoding: url}
                                    ^

            """)
        XCTAssertEqual(
            task("{parameters: {a: 1}, encoding: xml}").1,
            """
            t.yaml:6:42: error: unknown encoding 'xml'; expected one of url, json, propertyList
                    task: {parameters: {a: 1}, encoding: xml}
                                                         ^

            """)
    }

    func testQueryWithURLEncodedParameters() {
        XCTAssertEqual(
            task("{parameters: {a: 1}, query: {b: 2}}").1,
            """
            t.yaml:6:32: error: 'query' with url-encoded parameters is ambiguous; put the query values in 'parameters', or set 'destination: httpBody' to send the parameters in the body
                    task: {parameters: {a: 1}, query: {b: 2}}
                                               ^

            """)
        let (composite, errors) = task("{parameters: {a: 1}, destination: httpBody, query: {b: 2}}")
        XCTAssertEqual(errors, "")
        XCTAssertEqual(
            composite,
            .compositeParameters(
                body: [JSONTemplate.Member(key: "a", value: .int(1))],
                encoding: .url(destination: .httpBody, arrayEncoding: .brackets, boolEncoding: .numeric),
                query: [JSONTemplate.Member(key: "b", value: .int(2))]))
    }

    func testQueryWithUploadOrDownload() throws {
        XCTAssertEqual(
            task("{download: out.bin, query: {b: 2}}", method: "GET").1,
            """
            t.yaml:6:31: error: 'query' cannot go with 'download'; Moya's upload and download tasks take no separate query (a download can take 'parameters' with encoding url)
                    task: {download: out.bin, query: {b: 2}}
                                              ^

            """)
        let folder = try SpecTest.temporaryFolder(self)
        try SpecTest.write("bytes", to: folder + "/up.bin")
        XCTAssertTrue(
            task("{upload: up.bin, query: {b: 2}}", directory: folder).1.contains(
                "error: 'query' cannot go with 'upload'"))
    }

    func testDataFileAndUploadLiteralPathsMustExist() throws {
        let folder = try SpecTest.temporaryFolder(self)
        XCTAssertEqual(
            task("{dataFile: bodies/missing.json}", directory: folder).1,
            """
            t.yaml:6:22: error: dataFile 'bodies/missing.json' does not exist (paths are relative to the target file's folder)
                    task: {dataFile: bodies/missing.json}
                                     ^

            """)
        XCTAssertEqual(
            task("{upload: big.iso}", directory: folder).1,
            """
            t.yaml:6:20: error: upload file 'big.iso' does not exist (paths are relative to the target file's folder)
                    task: {upload: big.iso}
                                   ^

            """)
        try SpecTest.write("{}", to: folder + "/bodies/present.json")
        let (found, errors) = task("{dataFile: bodies/present.json}", directory: folder)
        XCTAssertEqual(errors, "")
        guard case .dataFile(let path)? = found else { return XCTFail("\(String(describing: found))") }
        XCTAssertEqual(path.literalText, "bodies/present.json")
        let (templated, templatedErrors) = task(
            "{upload: \"{archive}\"}", values: "[{archive: file}]", directory: folder)
        XCTAssertEqual(templatedErrors, "", "a path from a value is checked when the value is bound")
        guard case .uploadFile(let uploadPath)? = templated else { return XCTFail("\(String(describing: templated))") }
        XCTAssertEqual(uploadPath.soloPlaceholder, "archive")
    }

    func testLiteralPathsNamingAFolderAreNotReadableFiles() throws {
        let folder = try SpecTest.temporaryFolder(self)
        try SpecTest.write("x", to: folder + "/bodies/inside.json")
        XCTAssertEqual(
            task("{upload: bodies}", directory: folder).1,
            """
            t.yaml:6:20: error: upload file 'bodies' is not a readable file
                    task: {upload: bodies}
                                   ^

            """)
        let absolute = task("{upload: \(folder)/bodies}", directory: folder).1
        XCTAssertTrue(absolute.contains("error: upload file '\(folder)/bodies' is not a readable file"), absolute)
        // Outside the file's folder, it is refused before anything else (issue 11, item 8).
        let outside = task("{upload: \(folder)/bodies}", directory: folder + "/elsewhere").1
        XCTAssertTrue(
            outside.contains("error: upload file '\(folder)/bodies' is outside the target file's folder"), outside)
    }

    func testFileDefaultsAreResolvedAndCheckedLikeBoundFiles() throws {
        let folder = try SpecTest.temporaryFolder(self)
        try SpecTest.write("bytes", to: folder + "/files/default.bin")
        let values = "[{archive: {type: file, default: files/default.bin}}]"
        let (found, errors) = task("{upload: \"{archive}\"}", values: values, directory: folder)
        XCTAssertEqual(errors, "")
        XCTAssertNotNil(found)
        let body = "values: \(values)\npath: /a\nmethod: POST\ntask: {upload: \"{archive}\"}\nsample: ok"
        let spec = try XCTUnwrap(SpecTest.load(SpecTest.file(case: body), directory: folder).api?.cases.first)
        XCTAssertEqual(spec.values.first?.defaultValue, .file(path: folder + "/files/default.bin"))
        XCTAssertEqual(
            try spec.argumentBinder(fileBaseDirectory: folder).bind(positional: ["files/default.bin"]),
            ["archive": .file(path: folder + "/files/default.bin")], "a bound value resolves the same way")

        let missing = task(
            "{upload: \"{archive}\"}", values: "[{archive: {type: file, default: files/gone.bin}}]", directory: folder
        ).1
        XCTAssertTrue(
            missing.contains(
                "error: default file 'files/gone.bin' does not exist (paths are relative to the target file's folder)"),
            missing)
        let notAFile = task(
            "{upload: \"{archive}\"}", values: "[{archive: {type: file, default: files}}]", directory: folder
        ).1
        XCTAssertTrue(notAFile.contains("error: default file 'files' is not a readable file"), notAFile)
    }

    func testAPIPathsResolveAgainstTheTargetFilesFolder() throws {
        let api = try XCTUnwrap(SpecTest.load(SpecTest.file(case: "path: /a\nsample: ok"), file: "dir/t.yaml").api)
        XCTAssertEqual(api.resolvedPath("body.json"), "dir/body.json")
        XCTAssertEqual(api.resolvedPath("/abs/body.json"), "/abs/body.json")
        let here = try XCTUnwrap(SpecTest.load(SpecTest.file(case: "path: /a\nsample: ok"), file: "t.yaml").api)
        XCTAssertEqual(here.resolvedPath("body.json"), "body.json", "a file in '.' keeps paths as written")
    }

    func testOnlyAWholeStringPlaceholderKeepsItsJSONType() throws {
        let (found, errors) = task(#"{json: {a: "{v}", b: "{v}!", c: "{v}{v}", d: "{{v}}"}}"#, values: "[{v: int}]")
        XCTAssertEqual(errors, "")
        guard case .json(.object(let members))? = found else { return XCTFail("\(String(describing: found))") }
        XCTAssertEqual(members.map(\.key), ["a", "b", "c", "d"])
        XCTAssertEqual(
            members[0].value, .placeholder(name: "v", mark: Mark(line: 7, column: 23)),
            "the mark of the placeholder, inside the quotes")
        for member in members.dropFirst() {
            guard case .string = member.value else { return XCTFail("\(member.key): \(member.value)") }
        }
    }

    func testMultipartParts() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let parts = """

              multipart:
                - {name: title, value: "{title}"}
                - {name: avatar, file: "{avatar}", fileName: me.png, mimeType: image/png}
                - {name: meta, data: '{"a":1}', mimeType: application/json}
                - {value: x}
                - {name: both, value: x, data: y}
            """
        let (_, errors) = task(parts, values: "[{title: string}, {avatar: file}]", directory: folder)
        XCTAssertEqual(
            errors,
            """
            t.yaml:12:11: error: a multipart part needs a 'name'
                        - {value: x}
                          ^
            t.yaml:13:34: error: a multipart part has exactly one of value, file, data
                        - {name: both, value: x, data: y}
                                                 ^

            """)
        let validParts = parts.split(separator: "\n", omittingEmptySubsequences: false).dropLast(2).joined(
            separator: "\n")
        let (task, valid) = task(validParts, values: "[{title: string}, {avatar: file}]", directory: folder)
        XCTAssertEqual(valid, "")
        guard case .multipart(let built)? = task else { return XCTFail("\(String(describing: task))") }
        XCTAssertEqual(built.map(\.name), ["title", "avatar", "meta"])
        XCTAssertEqual(built[1].fileName, "me.png")
        guard case .data(let meta) = built[2].content else { return XCTFail() }
        XCTAssertEqual(meta.literalText, #"{"a":1}"#, "a brace that does not start {identifier} is literal")
        XCTAssertEqual(MultipartPartSpec.defaultMIMEType(forPath: "/x/photo.JPG"), "image/jpeg")
        XCTAssertEqual(MultipartPartSpec.defaultMIMEType(forPath: "/x/archive"), "application/octet-stream")
    }

    func testEveryTaskKind() throws {
        let folder = try SpecTest.temporaryFolder(self)
        try SpecTest.write("x", to: folder + "/f.bin")
        let expectations: [(String, String, (TaskSpec) -> Bool)] = [
            ("{data: \"text {v}\"}", "POST", { if case .data = $0 { true } else { false } }),
            (
                "{data: \"{v}\", query: {q: 1}}", "POST",
                { if case .compositeData(.data, _) = $0 { true } else { false } }
            ),
            (
                "{dataFile: f.bin, query: {q: \"{v}\"}}", "PUT",
                { if case .compositeData(.dataFile, _) = $0 { true } else { false } }
            ),
            (
                "{json: [\"{v}\"]}", "PATCH",
                {
                    if case .json(.array(let items)) = $0, items.count == 1, case .placeholder("v", _) = items[0] {
                        return true
                    }
                    return false
                }
            ),
            (
                "{json: {a: \"{v}\"}, query: {q: 1}}", "POST",
                { if case .compositeData(.json, _) = $0 { true } else { false } }
            ),
            (
                "{parameters: {a: \"{v}\"}, encoding: propertyList, format: binary}", "POST",
                {
                    $0
                        == .parameters(
                            [
                                JSONTemplate.Member(
                                    key: "a", value: .placeholder(name: "v", mark: Mark(line: 7, column: 29)))
                            ], encoding: .propertyList(format: .binary))
                }
            ),
            (
                "{parameters: {a: \"{v}\"}, encoding: json, prettyPrinted: true, query: {q: 1}}", "POST",
                { if case .compositeParameters(_, .json(prettyPrinted: true), _) = $0 { true } else { false } }
            ),
            ("{upload: f.bin, data: x}", "POST", { _ in false }),
            (
                "{multipart: [{name: a, value: \"{v}\"}], query: {q: 1}}", "POST",
                { if case .compositeMultipart(_, _) = $0 { true } else { false } }
            ),
            ("{download: \"out-{v}.bin\"}", "GET", { if case .download = $0 { true } else { false } }),
            (
                "{download: \"out-{v}.bin\", parameters: {a: 1}, encoding: url, destination: queryString, boolEncoding: literal}",
                "GET",
                {
                    if case .downloadParameters(_, .url(.queryString, .brackets, .literal), _) = $0 {
                        true
                    } else {
                        false
                    }
                }
            )
        ]
        for (yaml, method, matches) in expectations {
            let (built, errors) = task(yaml, values: "[{v: string}]", method: method, directory: folder)
            if yaml.hasPrefix("{upload: f.bin, data") {
                XCTAssertTrue(errors.contains("found 'upload' and 'data'"), errors)
                continue
            }
            XCTAssertEqual(errors, "", yaml)
            guard let built else {
                XCTFail("no task for \(yaml)")
                continue
            }
            XCTAssertTrue(matches(built), "\(yaml) built \(built)")
        }
    }

    func testEnvironmentReferencesAreNotAllowedInBodies() {
        XCTAssertEqual(
            task("{json: {token: \"${TOKEN}\"}}").1,
            """
            t.yaml:6:27: error: '${TOKEN}' is not allowed in a task; environment variables may appear in baseURL, headers, auth and environments (write '$${' for a literal '${')
                    task: {json: {token: "${TOKEN}"}}
                                          ^

            """)
    }

    func testEmptyTask() {
        XCTAssertEqual(
            task("{}").1,
            """
            t.yaml:6:11: error: a task has exactly one of data, dataFile, json, parameters, upload, multipart, download; remove 'task' for a plain request
                    task: {}
                          ^

            """)
    }

    // MARK: Frequent mistakes get the right fix (issue 13, item 4)

    func testAQueryAloneIsWrittenAsURLParameters() {
        let errors = task(#"{query: {q: "x"}}"#, method: "GET").1
        XCTAssertTrue(
            errors.contains(
                "t.yaml:6:12: error: 'query' adds URL parameters to a body; URL parameters alone are 'parameters: {...}' with 'encoding: url'"
            ), errors)
        XCTAssertFalse(errors.contains("remove 'task'"), "not the advice for a plain request: \(errors)")
    }

    func testAFormIsURLEncodedParameters() {
        let errors = task(#"{form: {q: "x"}}"#).1
        XCTAssertTrue(
            errors.contains(
                "unknown key 'form' in the task in case 'c'; a form body is 'parameters: {...}' with 'encoding: url' on POST"
            ), errors)
        XCTAssertFalse(errors.contains("did you mean 'format'"), errors)
        XCTAssertFalse(errors.contains("remove 'task'"), errors)
    }

    func testOtherToolsWordsForABody() {
        XCTAssertTrue(task(#"{body: "x"}"#).1.contains("a body is 'data' (text), 'json' (a JSON document)"))
        XCTAssertTrue(task(#"{headers: {A: b}}"#).1.contains("headers belong to the case"))
    }

    func testAnUnquotedPlaceholderInAFlowMapSaysToQuoteIt() {
        let errors = task("{parameters: {q: {q}}, encoding: url}", values: "[{q: string}]", method: "GET").1
        XCTAssertEqual(
            errors,
            """
            t.yaml:7:28: error: {q} without quotes is a YAML map, not a placeholder; write "{q}" in quotes
                    task: {parameters: {q: {q}}, encoding: url}
                                           ^

            """)
    }

    func testABodyOnGETAndOptionsOfAnotherEncodingAreExplained() {
        XCTAssertTrue(
            task("{json: {a: 1}}", method: "GET").1.contains(
                "a GET request cannot carry a body; 'json' sends one; use POST, PUT or PATCH"))
        XCTAssertTrue(
            task(#"{parameters: {a: "1"}, encoding: json, arrayEncoding: brackets}"#).1
                .contains("'arrayEncoding' is an option of encoding url, not json"))
    }
}
