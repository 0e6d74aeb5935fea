import Foundation
import MoyaKit
import XCTest

/// `ProcessEnvironment` reads what `ProcessInfo` and `FileManager` answer, without them.
final class ProcessEnvironmentTests: XCTestCase {
    func testVariablesAreTheOnesProcessInfoReads() {
        let variables = ProcessEnvironment.current
        XCTAssertFalse(variables.isEmpty)
        XCTAssertEqual(variables, ProcessInfo.processInfo.environment)
    }

    func testSetAndRemovedVariablesAreSeen() {
        let name = "MOYA_PROCESS_ENVIRONMENT_TEST"
        setenv(name, "a=b=c é", 1)
        defer { unsetenv(name) }
        // Only the first `=` separates name and value.
        XCTAssertEqual(ProcessEnvironment.current[name], "a=b=c é")
        unsetenv(name)
        XCTAssertNil(ProcessEnvironment.current[name])
    }

    func testWorkingFolderAndExecutable() throws {
        XCTAssertEqual(ProcessEnvironment.currentDirectory, FileManager.default.currentDirectoryPath)
        let previous = FileManager.default.currentDirectoryPath
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "moya-process-environment-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            _ = FileManager.default.changeCurrentDirectoryPath(previous)
            try? FileManager.default.removeItem(at: folder)
        }
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
        XCTAssertEqual(ProcessEnvironment.currentDirectory, FileManager.default.currentDirectoryPath)
        XCTAssertEqual(
            ProcessEnvironment.executablePath,
            try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    }
}
