import MoyaKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends a page after the first to its URL: the next link or body URL the server gave, or the
/// first page's URL with the cursor set. Method, headers (credentials included) and body stay the
/// case's; the URL was checked to be on the API's origin before it gets here.
struct PageURLPlugin: PluginType {
    var url: String

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let pageURL = URL(string: url) else { return request }
        var request = request
        request.url = pageURL
        return request
    }
}
