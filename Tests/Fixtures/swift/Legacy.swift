// Moya before version 10: `parameters` and `parameterEncoding` instead of `task`; upper-case
// methods; a struct target.
import Foundation
import Moya

enum LegacyAPI {
    case search(String, Int)
    case createNote(title: String, body: String)
    case note(id: Int)
}

extension LegacyAPI: TargetType {
    var baseURL: URL { return URL(string: "https://legacy.example.com/api")! }
    var path: String {
        switch self {
        case .search: return "search"
        case .createNote: return "notes"
        case .note(let id): return "notes/\(id)"
        }
    }
    var method: Moya.Method {
        switch self {
        case .createNote: return .POST
        default: return .GET
        }
    }
    var parameters: [String: Any]? {
        switch self {
        case .search(let query, let limit): return ["q": query, "limit": limit]
        case .createNote(let title, let body): return ["title": title, "body": body]
        default: return nil
        }
    }
    var parameterEncoding: ParameterEncoding {
        switch self {
        case .createNote: return JSONEncoding.default
        default: return URLEncoding.default
        }
    }
    var sampleData: Data { return "[]".utf8Encoded }
    var task: Task { return .request }
}

/// Moya 11 and later: an Encodable body.
struct NewNote: Encodable {
    let title: String
    let pinned: Bool
    enum CodingKeys: String, CodingKey {
        case title
        case pinned = "is_pinned"
    }
}

enum NotesAPI: TargetType {
    case create(title: String, pinned: Bool = false)
    case createRaw(NewNote)
    var baseURL: URL { URL(string: "https://notes.example.com")! }
    var path: String { "/notes" }
    var method: Moya.Method { .post }
    var task: Task {
        switch self {
        case let .create(title, pinned): return .requestJSONEncodable(NewNote(title: title, pinned: pinned))
        case .createRaw(let note): return .requestJSONEncodable(note)
        }
    }
    var headers: [String: String]? { ["Content-Type": "application/json"] }
    var sampleData: Data { Data("{\"id\": 1}".utf8) }
}
