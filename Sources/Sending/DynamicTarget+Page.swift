import MoyaKit
import TargetSpec

extension DynamicTarget {
    /// This target (page 1's) sent to page N at `url`: the next link or body URL the server gave,
    /// or page 1's URL with the cursor set. The one rule for both `--all` roads (`call --all`,
    /// `check --all`): the method, headers, body and auth stay the case's, whatever the auth's
    /// place (a header, `Authorization`, an API key in the query, which `url` adds again when the
    /// link does not repeat it); parameters that went into page 1's query do not, as `url` holds
    /// the whole query. `url` was checked to be on the API's origin before it gets here.
    package func page(at url: String) -> DynamicTarget {
        var page = self
        page.urlOverride = url
        page.task = Self.taskForLaterPage(task, method: method)
        return page
    }

    /// `task` without what it puts in the query.
    static func taskForLaterPage(_ task: MoyaKit.Task, method: MoyaKit.Method) -> MoyaKit.Task {
        switch task {
        case .requestParameters(_, let encoding as URLEncoding):
            switch encoding.destination {
            case .queryString: .requestPlain
            case .httpBody: task
            case .methodDependent: [.get, .head, .delete].contains(method) ? .requestPlain : task
            }
        case .requestCompositeData(let body, _): .requestData(body)
        case .requestCompositeParameters(let body, let encoding, _):
            .requestParameters(parameters: body, encoding: encoding)
        case .uploadCompositeFile(let file, _): .uploadFile(file)
        case .uploadCompositeMultipart(let parts, _): .uploadMultipart(parts)
        default: task
        }
    }
}
