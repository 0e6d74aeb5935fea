import FileIO
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
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path), ["fifo"], "the temporary file went too")

        XCTAssertThrowsError(try OutputFile.checkWritable(folder.path, overwrite: true)) { error in
            XCTAssertEqual((error as? FileError)?.message, "cannot write \(folder.path): it is a folder")
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

    /// A download that must not replace anything takes the first free `name-N.ext`; what is
    /// written through or refused keeps its own name, so the usual rules answer for it.
    func testTheUnusedPathOfADownloadIsNumberedBeforeItsExtension() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        XCTAssertEqual(OutputFile.unusedPath(for: path("new.bin")), path("new.bin"))
        for name in ["a.tar.gz", "a.tar-1.gz", "README", ".hidden", "dir.d/x"] {
            try FileManager.default.createDirectory(
                atPath: (path(name) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: path(name), contents: Data()))
        }
        XCTAssertEqual(OutputFile.unusedPath(for: path("a.tar.gz")), path("a.tar-2.gz"))
        XCTAssertEqual(OutputFile.unusedPath(for: path("README")), path("README-1"))
        XCTAssertEqual(OutputFile.unusedPath(for: path(".hidden")), path(".hidden-1"), "a leading dot is no extension")
        XCTAssertEqual(
            OutputFile.unusedPath(for: path("dir.d/x")), path("dir.d/x-1"), "a dot in a folder's name is no extension")
        XCTAssertEqual(symlink("/nonexistent", path("dangling")), 0)
        XCTAssertEqual(
            OutputFile.unusedPath(for: path("dangling")), path("dangling-1"), "a dangling link takes its name")
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        XCTAssertEqual(OutputFile.unusedPath(for: path("fifo")), path("fifo"), "written through, not numbered")
        XCTAssertEqual(OutputFile.unusedPath(for: folder.path), folder.path, "a folder is refused by the usual rules")
    }

    func testAFailedWriteIsThrownNamingThePathAndTheReason() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here")
        let file = try OutputFile(path: "/dev/full", overwrite: false)
        defer { file.discard() }
        XCTAssertEqual(file.mode, .writeThrough, "a device is written through, never replaced")
        XCTAssertThrowsError(try file.write(Data("x".utf8))) { error in
            XCTAssertEqual(
                error as? FileError,
                FileError(kind: .cannotWriteOutput, message: "cannot write /dev/full: No space left on device"))
        }
        XCTAssertEqual(file.byteCount, 0, "nothing counted as written")
    }
}
