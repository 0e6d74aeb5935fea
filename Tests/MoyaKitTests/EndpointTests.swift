import Foundation
import MoyaKit
import XCTest

final class EndpointTests: XCTestCase {
    private struct Payload: Encodable, Sendable {
        let userName: String
    }

    private func endpoint(
        _ task: Task, method: MoyaKit.Method = .post, url: String = "https://example.com/api/things",
        headers: [String: String]? = ["Accept": "application/json"]
    ) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: { .networkResponse(200, Data()) }, method: method, task: task,
            httpHeaderFields: headers)
    }

    func testDefaultEndpointOfTheSeedsGitHubTarget() throws {
        let endpoint = MoyaProvider<GitHub>.defaultEndpointMapping(for: .userRepositories("ash furrow"))
        XCTAssertEqual(endpoint.url, "https://api.github.com/users/ash%20furrow/repos")
        XCTAssertEqual(endpoint.method, .get)
        let request = try endpoint.urlRequest()
        XCTAssertEqual(request.url?.absoluteString, "https://api.github.com/users/ash%20furrow/repos?sort=pushed")
        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertNil(request.httpBody)

        let branches = try MoyaProvider<GitHub>.defaultEndpointMapping(for: .branches("Moya", true)).urlRequest()
        XCTAssertEqual(branches.url?.absoluteString, "https://api.github.com/repos/Moya/branches?protected=true")
    }

    func testURLOfATarget() {
        XCTAssertEqual(URL(target: GitHub.zen).absoluteString, "https://api.github.com/zen")
        XCTAssertEqual(
            URL(target: TestTarget(baseURL: URL(string: "https://x.org/v1/")!, path: "/a b/%C3%A9?")).absoluteString,
            "https://x.org/v1/a%20b/%C3%A9%3F")
        XCTAssertEqual(
            URL(target: TestTarget(baseURL: URL(string: "https://x.org/v1")!, path: "")).absoluteString,
            "https://x.org/v1")
        XCTAssertEqual(
            URL(target: TestTarget(baseURL: URL(string: "https://x.org/v1")!, path: "items/")).absoluteString,
            "https://x.org/v1/items/")
    }

    func testRequestPlainAndData() throws {
        let plain = try endpoint(.requestPlain, method: .get).urlRequest()
        XCTAssertEqual(plain.url?.absoluteString, "https://example.com/api/things")
        XCTAssertEqual(plain.httpMethod, "GET")
        XCTAssertEqual(plain.allHTTPHeaderFields, ["accept": "application/json"])
        XCTAssertNil(plain.httpBody)

        let data = try endpoint(.requestData(Data("raw".utf8))).urlRequest()
        XCTAssertEqual(data.httpBody?.text, "raw")
        XCTAssertNil(data.value(forHTTPHeaderField: "Content-Type"))
    }

    func testRequestJSONEncodable() throws {
        let request = try endpoint(.requestJSONEncodable(Payload(userName: "ash"))).urlRequest()
        XCTAssertEqual(request.httpBody?.text, #"{"userName":"ash"}"#)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")

        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let custom = try endpoint(.requestCustomJSONEncodable(Payload(userName: "ash"), encoder: encoder)).urlRequest()
        XCTAssertEqual(custom.httpBody?.text, #"{"user_name":"ash"}"#)
    }

    func testEveryBodyEncodingKeepsAContentTypeTheTargetSet() throws {
        let headers = ["Content-Type": "application/vnd.moya+data"]
        let tasks: [(String, Task)] = [
            ("encodable", .requestJSONEncodable(Payload(userName: "ash"))),
            ("json", .requestParameters(parameters: ["a": 1], encoding: JSONEncoding.default)),
            ("url body", .requestParameters(parameters: ["a": 1], encoding: URLEncoding.httpBody)),
            ("plist", .requestParameters(parameters: ["a": 1], encoding: PropertyListEncoding.xml))
        ]
        for (label, task) in tasks {
            let request = try endpoint(task, headers: headers).urlRequest()
            XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/vnd.moya+data", label)
            XCTAssertEqual(request.headers[values: .contentType].count, 1, label)
            XCTAssertFalse(request.httpBody?.isEmpty ?? true, label)
        }
    }

    func testRequestParameters() throws {
        let json = try endpoint(.requestParameters(parameters: ["b": 1, "a": "x"], encoding: JSONEncoding.default))
            .urlRequest()
        XCTAssertEqual(json.httpBody?.text, #"{"a":"x","b":1}"#)
        let query = try endpoint(.requestParameters(parameters: ["q": "a b"], encoding: URLEncoding.queryString))
            .urlRequest()
        XCTAssertEqual(query.url?.absoluteString, "https://example.com/api/things?q=a%20b")
        XCTAssertNil(query.httpBody)
    }

    func testCompositeTasks() throws {
        let data = try endpoint(.requestCompositeData(bodyData: Data("body".utf8), urlParameters: ["page": 2]))
            .urlRequest()
        XCTAssertEqual(data.httpBody?.text, "body")
        XCTAssertEqual(data.url?.query, "page=2")

        let parameters = try endpoint(
            .requestCompositeParameters(
                bodyParameters: ["name": "n"], bodyEncoding: JSONEncoding.default,
                urlParameters: ["page": 2])
        ).urlRequest()
        XCTAssertEqual(parameters.httpBody?.text, #"{"name":"n"}"#)
        XCTAssertEqual(parameters.url?.query, "page=2")

        let form = try endpoint(
            .requestCompositeParameters(
                bodyParameters: ["name": "n"], bodyEncoding: URLEncoding.httpBody,
                urlParameters: ["page": 2])
        ).urlRequest()
        XCTAssertEqual(form.httpBody?.text, "name=n")
        XCTAssertEqual(form.url?.query, "page=2")

        XCTAssertThrowsError(
            try endpoint(
                .requestCompositeParameters(
                    bodyParameters: ["name": "n"], bodyEncoding: URLEncoding.default,
                    urlParameters: [:])
            ).urlRequest()
        ) { error in
            guard case .parameterEncoding(let underlying)? = error as? MoyaError else { return XCTFail("\(error)") }
            XCTAssertEqual(underlying as? ParameterEncodingError, .compositeBodyEncodingNotHTTPBody)
        }
    }

    func testUploadTasks() throws {
        let file = URL(fileURLWithPath: "/tmp/upload.bin")
        let upload = try endpoint(.uploadFile(file)).urlRequest()
        XCTAssertEqual(upload.bodyFileURL, file)
        XCTAssertNil(upload.httpBody)

        let parts = [
            MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "field"),
            MultipartFormBodyPart(
                provider: .file(file), name: "file", fileName: "u.bin", mimeType: "application/octet-stream")
        ]
        XCTAssertEqual(try endpoint(.uploadMultipart(parts)).urlRequest().multipartParts, parts)
        let composite = try endpoint(.uploadCompositeMultipart(parts, urlParameters: ["draft": true])).urlRequest()
        XCTAssertEqual(composite.multipartParts, parts)
        XCTAssertEqual(composite.url?.query, "draft=1")
    }

    func testDownloadTasks() throws {
        let destination = DownloadDestinations.file(URL(fileURLWithPath: "/tmp/out.bin"))
        let plain = try endpoint(.downloadDestination(destination), method: .get).urlRequest()
        XCTAssertEqual(plain.url?.absoluteString, "https://example.com/api/things")
        let withParameters = try endpoint(
            .downloadParameters(parameters: ["v": 2], encoding: URLEncoding.default, destination: destination),
            method: .get
        ).urlRequest()
        XCTAssertEqual(withParameters.url?.query, "v=2")
    }

    func testInvalidURLAndEncodingFailures() {
        XCTAssertThrowsError(try endpoint(.requestPlain, url: "").urlRequest()) { error in
            guard case .requestMapping(let url)? = error as? MoyaError else { return XCTFail("\(error)") }
            XCTAssertEqual(url, "")
        }
        XCTAssertThrowsError(
            try endpoint(.requestParameters(parameters: ["x": Double.nan], encoding: JSONEncoding.default)).urlRequest()
        ) { error in
            guard case .parameterEncoding(let underlying)? = error as? MoyaError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(underlying)".contains("'x'"), "\(underlying)")
        }
    }

    func testAddingHeadersAndReplacingTask() throws {
        let original = endpoint(.requestPlain, headers: ["accept": "text/plain", "X-A": "1"])
        let added = original.adding(newHTTPHeaderFields: ["Accept": "application/json", "X-B": "2"])
        XCTAssertEqual(added.httpHeaderFields, ["Accept": "application/json", "X-A": "1", "X-B": "2"])
        XCTAssertEqual(original.httpHeaderFields, ["accept": "text/plain", "X-A": "1"])
        XCTAssertEqual(added.url, original.url)

        let replaced = original.replacing(task: .requestData(Data("new".utf8)))
        XCTAssertEqual(try replaced.urlRequest().httpBody?.text, "new")
        XCTAssertEqual(replaced.httpHeaderFields, original.httpHeaderFields)
    }

    func testEqualityIdentifiesTheSameRequest() {
        let first = endpoint(.requestParameters(parameters: ["a": 1, "b": 2], encoding: JSONEncoding.default))
        let same = endpoint(.requestParameters(parameters: ["b": 2, "a": 1], encoding: JSONEncoding.default))
        XCTAssertEqual(first, same)
        XCTAssertEqual(first.hashValue, same.hashValue)
        XCTAssertNotEqual(first, endpoint(.requestParameters(parameters: ["a": 2], encoding: JSONEncoding.default)))
        XCTAssertNotEqual(first, first.adding(newHTTPHeaderFields: ["X": "1"]))
        XCTAssertNotEqual(endpoint(.requestPlain, method: .get), endpoint(.requestPlain, method: .delete))
        XCTAssertEqual(Set([first, same]).count, 1)
    }
}
