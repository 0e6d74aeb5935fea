import Dispatch
import MoyaKit
import Paging
import Sending
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
        var walk = PageWalk(
            pagination: pagination, baseURL: firstTarget.baseURL.absoluteString, maximumPages: settings.maximumPages)
        var response = firstResponse
        var requestURL = firstResponse.request?.url?.absoluteString ?? firstTarget.url
        while true {
            let number = walk.pageNumber
            let step = walk.step(
                headers: PageWalk.fields(of: response), body: response.data, requestURL: requestURL,
                answeringURL: stubbed ? nil : response.response?.url?.absoluteString)
            let next: NextPage
            switch step {
            case .unreadable(let error): return ("page \(number): \(error)", number)
            case .page(_, .nextProblem(let problem)): return ("page \(number): \(problem)", number)
            case .page(_, .finished): return (nil, number)
            case .page(_, .reachedLimit(let count)):
                return ("more than \(count) pages (--max-pages \(count)); the last one still has a next page", number)
            case .page(_, .loop(let repeated)):
                return (
                    "page \(number) points to a page fetched before (\(repeated.cursor.map { "cursor '\($0)'" } ?? repeated.url))",
                    number
                )
            case .page(_, .fetch(let found)): next = found
            }
            var target = firstTarget
            if stubbed {
                do {
                    let sample = try PageSample.name(forPage: number + 1, in: item.spec)
                    target = try settings.builder(for: item, index: 0, isStubbed: true)
                        .target(for: item.spec, arguments: item.arguments, sampleName: sample)
                } catch let missing as MissingPageSample {
                    return (missing.message(marksSample: false), number)
                } catch {
                    return ("page \(number + 1): cannot build the request: \(error)", number + 1)
                }
            }
            target = target.page(at: next.url)
            switch fetch(target) {
            case .success(let answered):
                response = answered
            case .failure(.statusCode(let answered)):
                return (
                    "page \(number + 1): HTTP \(answered.statusCode) failed the case's validation (expected "
                        + "\(target.validationType.acceptedDescription))", number + 1
                )
            case .failure(let error):
                return ("page \(number + 1): \(error.transportError?.message ?? error.description)", number + 1)
            }
            requestURL = next.url
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
