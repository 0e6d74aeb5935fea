// A shop's API in the styles apps write: a protocol refining TargetType with defaults, a
// staging/production base URL, unlabelled values named by the switch, multi-case branches,
// `default`, nested raw-value enums, optionals and defaults, uploads, downloads, bundle stubs
// and per-case authorization.
import Foundation
import Moya

let useStaging = false

protocol ShopTargetType: TargetType, AccessTokenAuthorizable {}

extension ShopTargetType {
    var baseURL: URL {
        URL(string: useStaging ? "https://staging.shop.example.com/v2" : "https://api.shop.example.com/v2")!
    }
    var headers: [String: String]? { ["Accept": "application/json", "X-Client": "shop-ios"] }
    var validationType: ValidationType { .successCodes }
}

enum ShopAPI: ShopTargetType {
    enum Sort: String {
        case newest, priceAscending = "price-asc", priceDescending = "price-desc"
    }

    case products(category: String, sort: Sort = .newest, page: Int = 1, inStock: Bool? = nil)
    case product(String)
    case `default`(Int)
    case addToCart(String, quantity: Int)
    case removeFromCart(String)
    case login(email: String, password: String)
    case me
    case uploadAvatar(URL)
    case invoice(Int)
    case rate(String, score: Double, comment: String = "")

    var path: String {
        switch self {
        case .products: return "/products"
        case .product(let sku), .addToCart(let sku, _), .removeFromCart(let sku):
            return "/products/\(sku)/item"
        case .default(let id): return "/defaults/\(id)"
        case .login: return "/session"
        case .me: return "/me"
        case .uploadAvatar: return "/me/avatar"
        case .invoice(let number): return "/invoices/\(number).pdf"
        case let .rate(sku, _, _): return "/products/\(sku)/ratings"
        }
    }

    var method: Moya.Method {
        switch self {
        case .addToCart, .login, .rate: return .post
        case .removeFromCart: return .delete
        case .uploadAvatar: return .put
        default: return .get
        }
    }

    var task: Task {
        switch self {
        case let .products(category, sort, page, inStock):
            var parameters: [String: Any] = ["category": category, "sort": sort.rawValue, "page": page]
            if let inStock { parameters["in_stock"] = inStock }
            return .requestParameters(parameters: parameters, encoding: URLEncoding.queryString)
        case .addToCart(_, let quantity):
            return .requestParameters(parameters: ["quantity": quantity], encoding: JSONEncoding.default)
        case .login(let email, let password):
            return .requestParameters(
                parameters: ["email": email, "password": password], encoding: URLEncoding.httpBody)
        case .uploadAvatar(let image):
            return .uploadMultipart([
                MultipartFormData(
                    provider: .file(image), name: "avatar", fileName: "avatar.png", mimeType: "image/png"),
                MultipartFormData(provider: .data("profile".data(using: .utf8)!), name: "kind")
            ])
        case .invoice:
            return .downloadDestination(DefaultDownloadDestination)
        case .rate(_, let score, let comment):
            return .requestCompositeData(
                bodyData: Data("{\"score\": \(score), \"comment\": \"\(comment)\"}".utf8),
                urlParameters: ["source": "app"])
        default:
            return .requestPlain
        }
    }

    var authorizationType: AuthorizationType? {
        switch self {
        case .login: return .basic
        case .me, .addToCart, .removeFromCart, .uploadAvatar, .invoice, .rate: return .bearer
        default: return nil
        }
    }

    var sampleData: Data {
        switch self {
        case .products: return stubbedResponse("Products")
        case .product(let sku): return Data("{\"sku\": \"\(sku)\", \"price\": 12.5}".utf8)
        case .me:
            let path = Bundle.main.path(forResource: "Me", ofType: "json")!
            return FileManager.default.contents(atPath: path)!
        case .login: return stubbedResponse("Session")
        default: return Data()
        }
    }
}

func stubbedResponse(_ filename: String) -> Data {
    let bundle = Bundle.main
    let path = bundle.path(forResource: filename, ofType: "json")
    return (try? Data(contentsOf: URL(fileURLWithPath: path!))) ?? Data()
}

/// Ratings, with a Double raw-value enum.
enum Ratings: TargetType {
    enum Stars: Double {
        case half = 0.5, one = 1, oneAndHalf = 1.5
    }

    /// Rate an order
    case rate(order: Int, stars: Stars = .one)

    var baseURL: URL { URL(string: "https://ratings.shop.example.com")! }
    var path: String { "/ratings" }
    var method: Moya.Method { .post }
    var task: Task {
        switch self {
        case .rate(let order, let stars):
            return .requestParameters(
                parameters: ["order": order, "stars": stars.rawValue], encoding: JSONEncoding.default)
        }
    }
    var headers: [String: String]? { nil }
    var sampleData: Data { Data() }
}
