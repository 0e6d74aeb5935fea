import Foundation
import MoyaKit

/// `GET /` of a `TLSTestServer` (`openssl s_server -www` answers it with a status page).
struct SecureRoot: TargetType {
    let baseURL: URL
    var path: String { "/" }
    var method: MoyaKit.Method { .get }
    var task: Task { .requestPlain }
    var validationType: ValidationType { .successCodes }
    var headers: [String: String]? { nil }
}
