import Dispatch
import MoyaKit
import Paging
import Synchronization
import TargetModel
import TargetSpec

/// `check --all`: after a paginated case's first page passed, its next pages, one after another
/// (offline: the samples `page2`, `page3`...; live: the URLs the server gives). Each page must
/// pass the case's validation and be readable as a page; the run must end (no loop, at most
/// `maximumPages`) and stay on the API's origin, redirects included. Failures are `paging`, naming the page.
struct PageCheck {
    var settings: CheckConfiguration
    var item: CheckItem
    var pagination: Pagination
    var firstTarget: DynamicTarget

    /// Follows the pages after `firstResponse`; returns why it failed, or `nil`, and the page count.
    /// `fetch` answers one page's target, synchronously.
    func follow(
        from firstResponse: Response, stubbed: Bool,
        fetch: (DynamicTarget) -> Result<Response, MoyaError>
    ) -> (problem: String?, pages: Int) {
        let reader = PageReader(pagination: pagination, baseURL: firstTarget.baseURL.absoluteString)
        var response = firstResponse
        var requestURL = firstResponse.request?.url?.absoluteString ?? firstTarget.url
        var run = PagingRun(maximumPages: settings.maximumPages, firstURL: requestURL)
        var number = 1
        while true {
            let page: Page
            do {
                try reader.checkAnswer(from: stubbed ? nil : response.response?.url?.absoluteString)
                page = try reader.read(
                    headers: ChainStep.fields(of: response), body: response.data, requestURL: requestURL)
            } catch {
                return ("page \(number): \(error)", number)
            }
            if let problem = page.nextProblem { return ("page \(number): \(problem)", number) }
            let next: NextPage
            switch run.advance(next: page.next) {
            case .finished: return (nil, number)
            case .reachedLimit(let count):
                return ("more than \(count) pages (--max-pages \(count)); the last one still has a next page", number)
            case .loop(let repeated):
                return (
                    "page \(number) points to a page fetched before (\(repeated.cursor.map { "cursor '\($0)'" } ?? repeated.url))",
                    number
                )
            case .fetch(let found): next = found
            }
            number += 1
            var target = firstTarget
            if stubbed {
                guard item.spec.samples.contains(where: { $0.name == "page\(number)" }) else {
                    return (
                        "page \(number - 1) has a next page, but the case has no sample 'page\(number)'", number - 1
                    )
                }
                do {
                    target = try settings.builder(for: item, index: 0, isStubbed: true)
                        .target(for: item.spec, arguments: item.arguments, sampleName: "page\(number)")
                } catch {
                    return ("page \(number): cannot build the request: \(error)", number)
                }
            }
            target.urlOverride = next.url
            target.task = Self.taskForLaterPage(target.task, method: target.method)
            switch fetch(target) {
            case .success(let answered):
                response = answered
            case .failure(.statusCode(let answered)):
                return (
                    "page \(number): HTTP \(answered.statusCode) failed the case's validation (expected "
                        + "\(target.validationType.acceptedDescription))", number
                )
            case .failure(let error):
                return ("page \(number): \(error.transportError?.message ?? error.description)", number)
            }
            requestURL = next.url
        }
    }

    /// A later page's URL holds its whole query: parameters that went into the first page's
    /// query are not added again; a body stays.
    static func taskForLaterPage(_ task: MoyaKit.Task, method: MoyaKit.Method) -> MoyaKit.Task {
        switch task {
        case .requestParameters(_, let encoding as URLEncoding):
            switch encoding.destination {
            case .queryString: .requestPlain
            case .httpBody: task
            case .methodDependent: [.get, .head, .delete].contains(method) ? .requestPlain : task
            }
        case .requestCompositeData(let body, _): .requestData(body)
        default: task
        }
    }

    /// Sends `target` through `provider` and waits for the answer (pages come one after another).
    static func send(
        _ target: DynamicTarget, provider: MoyaProvider<DynamicTarget>, bodyLimit: Int?,
        queue: DispatchQueue
    ) -> Result<Response, MoyaError> {
        let outcome = Mutex<Result<Response, MoyaError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        provider.request(target, body: .collect(limit: bodyLimit), callbackQueue: queue) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
            ?? .failure(.underlying(TransportError(kind: .cancelled, message: "no answer"), nil))
    }
}
