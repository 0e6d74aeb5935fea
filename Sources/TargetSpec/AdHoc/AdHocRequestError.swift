/// Why a `moya-cli request` command line does not make a request: each message names the word
/// at fault (a usage error, exit 64).
package struct AdHocRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the item, method, path or URL.
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    /// An error about request item `item`: "request item 'ITEM' PROBLEM".
    package init(item: String, _ problem: String) {
        message = "request item '\(AdHocPath.displayed(item))' \(problem)"
    }

    package var description: String { message }
}
