import Paging
import XCTest

/// The cursor parameter set in the URL of the page just fetched: every parameter of that name
/// replaced by one (where the first was), or added; names that need escaping (`$skiptoken`,
/// `page[cursor]`) compared as they are written in the URL.
final class PageURLTests: XCTestCase {
    func testACursorParameterIsAddedOnceThenReplaced() {
        for (name, written) in [
            ("cursor", "cursor"), ("$skiptoken", "%24skiptoken"), ("page[cursor]", "page%5Bcursor%5D"),
            ("after cursor", "after%20cursor"), ("é", "%C3%A9")
        ] {
            let first = PageURL.settingQueryParameter(name, to: "c2", in: "https://a.example/items?limit=2")
            XCTAssertEqual(first, "https://a.example/items?limit=2&\(written)=c2", name)
            let second = PageURL.settingQueryParameter(name, to: "c3", in: first)
            XCTAssertEqual(second, "https://a.example/items?limit=2&\(written)=c3", name)
            let third = PageURL.settingQueryParameter(name, to: "c4", in: "https://a.example/items?\(written)=c1&x=1")
            XCTAssertEqual(third, "https://a.example/items?\(written)=c4&x=1", name)
        }
    }

    func testEveryRepeatOfTheParameterGoesAndOthersStayInOrder() {
        XCTAssertEqual(
            PageURL.settingQueryParameter(
                "$skiptoken", to: "n", in: "https://a.example/i?b=1&%24skiptoken=x&c=2&%24skiptoken=y#frag"),
            "https://a.example/i?b=1&%24skiptoken=n&c=2")
        // A name that only starts like the parameter's is another parameter.
        XCTAssertEqual(
            PageURL.settingQueryParameter("page[cursor]", to: "n", in: "https://a.example/i?page%5Bcursor%5Dx=1"),
            "https://a.example/i?page%5Bcursor%5Dx=1&page%5Bcursor%5D=n")
        XCTAssertEqual(
            PageURL.settingQueryParameter("cursor", to: "a b&c", in: "https://a.example/i"),
            "https://a.example/i?cursor=a%20b%26c")
    }
}
