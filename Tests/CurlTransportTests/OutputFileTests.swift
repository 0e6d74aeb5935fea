import CurlTransport
import Foundation
import XCTest

/// `OutputFile`'s rules, on real files in a temporary folder.
final class OutputFileTests: XCTestCase {
    func testAFIFOIsWrittenThroughAndARegularFileAtomically() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = Thread {
            let descriptor = open(fifo, O_RDONLY)
            var byte = [UInt8](repeating: 0, count: 16)
            while read(descriptor, &byte, 16) > 0 {}
            close(descriptor)
        }
        reader.start()
        let throughFIFO = try OutputFile(path: fifo, overwrite: false)
        XCTAssertEqual(throughFIFO.mode, .writeThrough)
        try throughFIFO.write(Data("hello".utf8))
        try throughFIFO.commit()

        let regular = folder.appendingPathComponent("new.txt").path
        let file = try OutputFile(path: regular, overwrite: false)
        XCTAssertEqual(file.mode, .atomic)
        try file.write(Data("half".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: regular), "nothing at the destination before the commit")
        file.discard()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["fifo"], "the temporary file went too")

        XCTAssertThrowsError(try OutputFile.checkWritable(folder.path, overwrite: true)) { error in
            XCTAssertEqual((error as? TransportError)?.message, "cannot write \(folder.path): it is a folder")
        }
    }

    func testFoldersMadeForAFileGoAgainWhenItFails() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("a/b/c.bin").path
        let file = try OutputFile(path: nested, overwrite: false, createFolders: true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/b").path))
        file.discard()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}
