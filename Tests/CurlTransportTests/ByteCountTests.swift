import CurlTransport
import XCTest

/// `ByteCount`: sizes in messages.
final class ByteCountTests: XCTestCase {
    func testByteCountsReadAsPeopleWriteThem() {
        XCTAssertEqual(ByteCount.describe(1), "1 byte")
        XCTAssertEqual(ByteCount.describe(1023), "1023 bytes")
        XCTAssertEqual(ByteCount.describe(1 << 20), "1 MiB")
        XCTAssertEqual(ByteCount.describe(256 << 20), "256 MiB")
        XCTAssertEqual(ByteCount.describe(3 << 29), "1.5 GiB")
    }
}
