import Foundation
import TargetAuth
import XCTest

/// When a cached token may still be sent: not in its last `expirySkew` seconds, since it could
/// expire on the way and the server's clock may be ahead.
final class OAuth2TokenTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func testATokenIsNotHandedOutInItsLastSeconds() {
        XCTAssertEqual(OAuth2Token.expirySkew, 30)
        for (expiresIn, isValid) in [(3600.0, true), (31, true), (30, false), (10, false), (0, false), (-5, false)] {
            let token = OAuth2Token(accessToken: "a", expiresAt: now.addingTimeInterval(expiresIn))
            XCTAssertEqual(token.isValid(at: now), isValid, "expires in \(expiresIn) s")
        }
        let soon = OAuth2Token(accessToken: "a", expiresAt: now.addingTimeInterval(10))
        XCTAssertTrue(soon.isValid(at: now, skew: 0))
    }

    func testATokenWithoutAnExpiryIsUsedUntilRefused() {
        XCTAssertTrue(OAuth2Token(accessToken: "a").isValid(at: .distantFuture))
    }
}
