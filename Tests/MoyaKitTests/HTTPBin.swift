import Foundation
import MoyaKit
import Synchronization
import TestServers

/// The routes of `HTTPTestServer`, described as a Moya user describes an API (compare `GitHub`).
///
/// The base URL is the server the running test started (`HTTPBinTestCase` sets it up and tears it
/// down; XCTest runs one test at a time).
enum HTTPBin {
    /// `GET /get`.
    case get
    /// `GET /get` with parameters in the query string.
    case search(query: String, page: Int)
    /// `/anything` with any method, task and extra headers: the request is echoed back.
    case anything(method: MoyaKit.Method = .post, task: Task, headers: [String: String] = [:])
    /// `/status/N`, answering `body` when given, validated with `validation`.
    case status(Int, validation: ValidationType = .none, body: String? = nil)
    /// `/delay/MS`: answers after that many milliseconds.
    case delay(milliseconds: Int)
    /// `POST /delay/MS` sending `task`: answers after that many milliseconds.
    case slowPost(milliseconds: Int, task: Task)
    /// `/redirect/N`: N redirects, then `/get`.
    case redirect(hops: Int)
    /// `/bytes/N` downloaded to `destination`.
    case download(bytes: Int, destination: URL)
    /// `/truncated/N`: announces N bytes, sends half and closes; downloaded to `destination`.
    case downloadTruncated(bytes: Int, destination: URL)
    /// `/anything` with parameters, downloaded to `destination`.
    case downloadEcho(parameters: [String: any Sendable], destination: URL)
    /// `/bytes/N` into memory.
    case bytes(Int)
    /// `PUT /put` streaming `file` as the body.
    case upload(file: URL)
    /// `POST /post` with multipart parts.
    case uploadParts([MultipartFormBodyPart])
    /// `/headers`, authorized with `authorization` by `AccessTokenPlugin`.
    case headers(authorization: AuthorizationType?)
    /// `/basic-auth/USER/PASS`.
    case basicAuth(user: String, password: String)
    /// `/digest-auth/auth/USER/PASSWORD/ALGORITHM`: HTTP Digest (RFC 7616).
    case digestAuth(user: String, password: String, algorithm: String)
    /// `/drop`: the server closes the connection without answering.
    case drop
    /// `/drop/MS`: the same, after that many milliseconds.
    case dropAfter(milliseconds: Int)

    private static let server = Mutex<HTTPTestServer?>(nil)

    /// Points every `HTTPBin` target at `server` (nil: at nothing).
    static func use(_ server: HTTPTestServer?) {
        self.server.withLock { $0 = server }
    }
}

extension HTTPBin: TargetType, AccessTokenAuthorizable {
    var baseURL: URL {
        // Port 9 (discard) on loopback: a request made with no server running fails to connect.
        HTTPBin.server.withLock { $0?.baseURL } ?? URL(string: "http://127.0.0.1:9")!
    }

    var path: String {
        switch self {
        case .get, .search: return "/get"
        case .anything, .downloadEcho: return "/anything"
        case .status(let code, _, _): return "/status/\(code)"
        case .delay(let milliseconds), .slowPost(let milliseconds, _): return "/delay/\(milliseconds)"
        case .redirect(let hops): return "/redirect/\(hops)"
        case .download(let count, _), .bytes(let count): return "/bytes/\(count)"
        case .downloadTruncated(let count, _): return "/truncated/\(count)"
        case .upload: return "/put"
        case .uploadParts: return "/post"
        case .headers: return "/headers"
        case .basicAuth(let user, let password): return "/basic-auth/\(user)/\(password)"
        case .digestAuth(let user, let password, let algorithm):
            return "/digest-auth/auth/\(user)/\(password)/\(algorithm)"
        case .drop: return "/drop"
        case .dropAfter(let milliseconds): return "/drop/\(milliseconds)"
        }
    }

    var method: MoyaKit.Method {
        switch self {
        case .anything(let method, _, _): return method
        case .upload: return .put
        case .uploadParts, .slowPost: return .post
        default: return .get
        }
    }

    var task: Task {
        switch self {
        case .search(let query, let page):
            return .requestParameters(parameters: ["q": query, "page": page], encoding: URLEncoding.queryString)
        case .anything(_, let task, _), .slowPost(_, let task):
            return task
        case .status(_, _, let body?):
            return .requestParameters(parameters: ["body": body], encoding: URLEncoding.queryString)
        case .download(_, let destination), .downloadTruncated(_, let destination):
            return .downloadDestination(DownloadDestinations.file(destination))
        case .downloadEcho(let parameters, let destination):
            return .downloadParameters(
                parameters: parameters, encoding: URLEncoding.default,
                destination: DownloadDestinations.file(destination))
        case .upload(let file):
            return .uploadFile(file)
        case .uploadParts(let parts):
            return .uploadMultipart(parts)
        default:
            return .requestPlain
        }
    }

    var validationType: ValidationType {
        if case .status(_, let validation, _) = self { return validation }
        return .none
    }

    var headers: [String: String]? {
        var fields = ["X-Client": "MoyaKit-tests"]
        if case .anything(_, _, let extra) = self { fields.merge(extra) { _, new in new } }
        return fields
    }

    var sampleData: Data { Data(#"{"stubbed":true}"#.utf8) }

    var authorizationType: AuthorizationType? {
        if case .headers(let authorization) = self { return authorization }
        return nil
    }
}
