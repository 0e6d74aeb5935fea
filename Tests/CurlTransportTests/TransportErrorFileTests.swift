import CurlTransport
import FileIO
import XCTest

/// A file that could not be written (a download's destination, a body's standard output) reaches
/// a sender as the transport's error of the same kind, which the CLI maps to its exit status.
final class TransportErrorFileTests: XCTestCase {
    func testEveryFileErrorKeepsItsKindAndMessage() {
        let kinds: [(FileError.Kind, TransportError.Kind)] = [
            (.destinationExists, .destinationExists), (.destinationProtected, .destinationProtected),
            (.cannotWriteOutput, .cannotWriteOutput), (.brokenPipe, .brokenPipe), (.cancelled, .cancelled)
        ]
        for (fileKind, transportKind) in kinds {
            XCTAssertEqual(
                TransportError(FileError(kind: fileKind, message: "cannot write out.bin: why")),
                TransportError(kind: transportKind, message: "cannot write out.bin: why"))
        }
    }

    func testConvertingPassesAResultOnAndThrowsTheTransportsError() throws {
        XCTAssertEqual(try TransportError.converting { () throws(FileError) in 7 }, 7)
        XCTAssertThrowsError(
            try TransportError.converting { () throws(FileError) in
                throw FileError(kind: .brokenPipe, message: "cannot write standard output: Broken pipe")
            }
        ) { error in
            XCTAssertEqual(
                error as? TransportError,
                TransportError(kind: .brokenPipe, message: "cannot write standard output: Broken pipe"))
        }
    }
}
