import Foundation
import TargetModel
import TargetSpec
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Saving a case into a real file: written atomically with the file's mode, and every refusal
/// leaves the file's bytes as they were.
final class CaseSaverTests: XCTestCase {
    private let original = "# my API\napi: hb\nbaseURL: https://example.com   # local\ncases:\n  get:\n    path: /get\n"

    private func folderWithFile(mode: mode_t = 0o640) throws -> (folder: String, path: String) {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/hb.yaml"
        try SpecTest.write(original, to: path)
        XCTAssertEqual(chmod(path, mode), 0)
        return (folder, path)
    }

    private func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    private func assertRefused(
        _ request: NewCase, as name: String, at path: String, shown: String? = nil, kind: TargetFileEditError.Kind,
        message: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertThrowsError(try CaseSaver.save(request, as: name, toFileAt: path, file: shown), file: file, line: line)
        { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind, kind, file: file, line: line)
            XCTAssertEqual((error as? TargetFileEditError)?.message, message, file: file, line: line)
        }
        XCTAssertEqual(try contents(path), original, "no byte changed", file: file, line: line)
        let names = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        XCTAssertFalse(
            names.contains { $0.hasPrefix(".moya-edit-") }, "no temporary file left: \(names)", file: file, line: line)
    }

    func testSavesAtomicallyKeepingTheModeAndEveryByte() throws {
        let (folder, path) = try folderWithFile(mode: 0o640)
        var request = NewCase(method: "GET", path: "/bearer")
        request.headers = [.init(name: "Authorization", value: "Bearer s3cret", isSecret: true)]
        let saved = try CaseSaver.save(request, as: "bearer", toFileAt: path)
        XCTAssertEqual(
            try contents(path),
            original
                + "  bearer:\n    method: GET\n    path: /bearer\n    headers: {Authorization: \"${secret:MOYA_HB_AUTHORIZATION}\"}\n"
        )
        XCTAssertEqual(saved.line, 7)
        XCTAssertEqual(
            saved.secrets, [RenderedCase.SecretReference(header: "Authorization", variable: "MOYA_HB_AUTHORIZATION")])
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o640)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["hb.yaml"])
    }

    func testRefusesTakenAndInvalidNamesAndRequestsThatDoNotValidate() throws {
        let (_, path) = try folderWithFile()
        try assertRefused(
            NewCase(method: "GET", path: "/x"), as: "get", at: path, shown: "targets/hb.yaml", kind: .usage,
            message: "case 'get' exists in targets/hb.yaml (line 5); pick another name or remove it first")
        try assertRefused(
            NewCase(method: "GET", path: "/x"), as: "bad\nname", at: path, kind: .usage,
            message: "'bad\\nname' is not a valid case name: use letters, digits and _, not starting with a digit")
        var unknownScheme = NewCase(method: "GET", path: "/x")
        unknownScheme.auth = .scheme("nope")
        XCTAssertThrowsError(try CaseSaver.save(unknownScheme, as: "x", toFileAt: path)) { error in
            let error = error as? TargetFileEditError
            XCTAssertEqual(error?.kind.exitStatus, 70)
            XCTAssertEqual(
                error?.message,
                "\(path) with the case 'x' added does not validate; nothing was written (this is a bug in moya-cli: please report it with the request)"
            )
            XCTAssertTrue(error?.diagnostics?.contains("\(path):10:11: error:") == true, error?.diagnostics ?? "")
        }
        XCTAssertEqual(try contents(path), original)
    }

    func testRefusesAFileWithErrorsAFlowCasesMapASymlinkAndAFolder() throws {
        let (folder, path) = try folderWithFile()
        let broken = folder + "/broken.yaml"
        try SpecTest.write("baseURL: https://example.com\ncases:\n  get:\n    path: nope\n", to: broken)
        XCTAssertThrowsError(try CaseSaver.save(NewCase(method: "GET", path: "/x"), as: "x", toFileAt: broken)) {
            error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 65)
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "\(broken) has errors; fix them before adding a case (moya-cli validate \(broken))")
        }
        let flow = folder + "/flow.yaml"
        try SpecTest.write("baseURL: https://example.com\ncases: {get: {path: /get}}\n", to: flow)
        XCTAssertThrowsError(try CaseSaver.save(NewCase(method: "GET", path: "/x"), as: "x", toFileAt: flow)) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 65)
        }
        XCTAssertEqual(try contents(flow), "baseURL: https://example.com\ncases: {get: {path: /get}}\n")

        let link = folder + "/link.yaml"
        XCTAssertEqual(symlink(path, link), 0)
        XCTAssertThrowsError(try CaseSaver.save(NewCase(method: "GET", path: "/x"), as: "x", toFileAt: link)) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 74)
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "\(link) is a symbolic link; cases are added only to the file itself: give its real path (--targets) or edit it by hand"
            )
        }
        var info = stat()
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link is still a link")
        XCTAssertEqual(try contents(path), original)

        XCTAssertThrowsError(try CaseSaver.save(NewCase(method: "GET", path: "/x"), as: "x", toFileAt: folder)) {
            error in
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message, "cannot add a case to \(folder): it is not a regular file")
        }
    }

    func testRefusesAReadOnlyFile() throws {
        let (_, path) = try folderWithFile(mode: 0o444)
        try assertRefused(
            NewCase(method: "GET", path: "/x"), as: "x", at: path, kind: .cannotWrite,
            message: "cannot add a case to \(path): it is read-only")
    }

    func testRefusesWhenTheFileChangedBetweenReadAndWrite() throws {
        let (_, path) = try folderWithFile()
        let snapshot = try TargetFileWriter.read(path)
        // Another writer, same size (so only the bytes or the time tell).
        let changed = original.replacingOccurrences(of: "/get", with: "/GET")
        try changed.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try TargetFileWriter.replace(snapshot, with: Array("baseURL: x\n".utf8))) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 74)
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "cannot add a case to \(path): it changed since it was read (another program wrote it); nothing was written: run the command again"
            )
        }
        XCTAssertEqual(try contents(path), changed, "the other writer's change is kept")

        // Replaced by a rename (as editors save), with the very same bytes: a different file now.
        let again = try TargetFileWriter.read(path)
        let other = path + ".new"
        try changed.write(toFile: other, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(other, path), 0)
        XCTAssertThrowsError(try TargetFileWriter.replace(again, with: Array("x".utf8)))
        XCTAssertEqual(try contents(path), changed)
    }

    func testRefusesAnEditThatWouldChangeAnotherCase() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/hb.yaml"
        let text = "baseURL: https://example.com\ncases:\n  get:\n    path: /get\n    sample: |\n      no final newline"
        try SpecTest.write(text, to: path)
        XCTAssertThrowsError(try CaseSaver.save(NewCase(method: "GET", path: "/x"), as: "x", toFileAt: path)) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 70)
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "adding the case to \(path) would change the case 'get'; nothing was written (a block scalar (| or >) ending a file without a final newline does: end the file with a newline)"
            )
        }
        XCTAssertEqual(try contents(path), text)
    }

    func testRefusesAFileLargerThanATargetFileMayBe() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let path = folder + "/huge.yaml"
        let text =
            "baseURL: https://example.com\ncases:\n  get:\n    path: /get\n# " + String(repeating: "x", count: 16 << 20)
            + "\n"
        try SpecTest.write(text, to: path)
        XCTAssertThrowsError(try CaseSaver.save(NewCase(method: "GET", path: "/x"), as: "x", toFileAt: path)) { error in
            XCTAssertEqual((error as? TargetFileEditError)?.kind.exitStatus, 65)
            XCTAssertEqual(
                (error as? TargetFileEditError)?.message,
                "cannot add a case to \(path): it is larger than 16777216 bytes, the largest target file")
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, text.utf8.count)
    }
}
