/// The state of paging through a list: how many pages were fetched and which were seen, so a
/// server that sends the same next page twice (a loop) or pages forever stops.
package struct PagingRun: Sendable {
    /// What happens after a page.
    package enum Step: Sendable, Hashable {
        /// Fetch this page next.
        case fetch(NextPage)
        /// The page had no next page: done.
        case finished
        /// `maximumPages` pages were fetched and there are more.
        case reachedLimit(Int)
        /// The next page was fetched before (by URL, or by cursor).
        case loop(NextPage)
    }

    /// The most pages to fetch.
    package let maximumPages: Int
    /// Pages fetched so far.
    package private(set) var pagesFetched = 0
    private var seenURLs: Set<String> = []
    private var seenCursors: Set<String> = []

    /// Starts a run whose first page is fetched from `firstURL`.
    package init(maximumPages: Int, firstURL: String) {
        self.maximumPages = max(1, maximumPages)
        seenURLs.insert(firstURL)
    }

    /// Records a fetched page whose next page is `next`, and says what to do.
    package mutating func advance(next: NextPage?) -> Step {
        pagesFetched += 1
        guard let next else { return .finished }
        if let cursor = next.cursor {
            guard seenCursors.insert(cursor).inserted else { return .loop(next) }
        }
        guard seenURLs.insert(next.url).inserted else { return .loop(next) }
        guard pagesFetched < maximumPages else { return .reachedLimit(pagesFetched) }
        return .fetch(next)
    }
}
