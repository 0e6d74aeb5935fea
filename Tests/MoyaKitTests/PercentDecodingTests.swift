import Foundation
import MoyaKit
import XCTest

/// `PercentEncoding.decoded` stands in for Foundation's `removingPercentEncoding`, so the binary
/// links FoundationEssentials only (issue 16: full Foundation brought ICU and 48 MB into it).
/// The tests may use full Foundation: it is the reference.
final class PercentDecodingTests: XCTestCase {
    func testDecodingAgreesWithFoundation() {
        let samples = [
            "", "plain", "p%40ss", "%41%42%43", "%e2%82%ac euro", "%E2%82%AC", "100%", "%", "%4", "%4G", "%zz",
            "a%2Fb%3Fc", "%C3%28",
            "%FF", "%00", "caf\u{E9}%20ok", "%%41", "s3cr3t%21%", "%25", "+plus+"
        ]
        for sample in samples {
            XCTAssertEqual(PercentEncoding.decoded(sample), sample.removingPercentEncoding, sample.debugDescription)
        }
    }
}
