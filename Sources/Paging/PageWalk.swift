import MoyaKit
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one paging loop, as a step: `call --all` and `check --all` each send page N as they send
/// (a latch, a callback queue), hand its answer to `step`, and do what it says. Reading the page,
/// refusing an answer from another origin, the loop guard and `--max-pages` live here once; the
/// callers only word the stop for their output.
package struct PageWalk: Sendable {
    /// What happens after a page.
    package enum Step: Sendable {
        /// The answer could not be read as a page (not JSON, no items, answered off the origin).
        case unreadable(PagingError)
        /// The page was read; `then` says what comes after its items.
        case page(Page, then: After)
    }

    /// What comes after a page's items.
    package enum After: Sendable {
        /// Fetch this page next (`pageNumber` is already its number).
        case fetch(NextPage)
        /// The page had no next page: done.
        case finished
        /// The next page cannot be followed (not a URL, off the origin...).
        case nextProblem(PagingError)
        /// `--max-pages` pages were fetched and there are more.
        case reachedLimit(Int)
        /// The next page was fetched before (by URL or cursor): the server would page forever.
        case loop(NextPage)
    }

    /// Reads each page's items and next page.
    package let reader: PageReader
    /// The most pages fetched.
    package let maximumPages: Int
    /// The number of the page `step` reads next, from 1.
    package private(set) var pageNumber = 1
    private var run: PagingRun?

    /// Starts at page 1 of a case paging as `pagination` says, on the origin of `baseURL`.
    package init(pagination: Pagination, baseURL: String, maximumPages: Int) {
        reader = PageReader(pagination: pagination, baseURL: baseURL)
        self.maximumPages = maximumPages
    }

    /// Reads page `pageNumber` from its answer and says what comes next.
    ///
    /// - Parameters:
    ///   - requestURL: the URL the page was fetched from (relative links resolve against it).
    ///   - answeringURL: the URL that answered, after redirects; `nil` for a stubbed page.
    package mutating func step(
        headers: [(name: String, value: String)], body: Data, requestURL: String, answeringURL: String?
    ) -> Step {
        if run == nil { run = PagingRun(maximumPages: maximumPages, firstURL: requestURL) }
        let page: Page
        do {
            try reader.checkAnswer(from: answeringURL)
            page = try reader.read(headers: headers, body: body, requestURL: requestURL)
        } catch {
            return .unreadable(error)
        }
        if let problem = page.nextProblem { return .page(page, then: .nextProblem(problem)) }
        switch run?.advance(next: page.next) ?? .finished {
        case .finished: return .page(page, then: .finished)
        case .reachedLimit(let count): return .page(page, then: .reachedLimit(count))
        case .loop(let next): return .page(page, then: .loop(next))
        case .fetch(let next):
            pageNumber += 1
            return .page(page, then: .fetch(next))
        }
    }

    /// The header fields of `response`, in order, as `step` reads them.
    package static func fields(of response: Response) -> [(name: String, value: String)] {
        response.response?.headers.map { ($0.name.rawName, $0.value) } ?? []
    }
}
