import CLITestSupport
import Foundation
import XCTest

/// Issue 16: the binary links FoundationEssentials, never full Foundation. One unconditional
/// `import Foundation` anywhere in Sources links all of it, ICU included: the static binary
/// grew from 38 MB to 86 MB, its floor from 9.5 to 12 MiB, and every start paid for it.
final class FoundationImportTests: XCTestCase {
    func testFoundationIsImportedOnlyWhereFoundationEssentialsIsMissing() throws {
        let sources = CLIRunner.repositoryRoot.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThan(files.count, 100)
        var offenders: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard code == "import Foundation" || code == "@_exported import Foundation" else { continue }
                // Allowed only as the fallback of `#if canImport(FoundationEssentials)`.
                let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                let opening = index > 2 ? lines[index - 3].trimmingCharacters(in: .whitespaces) : ""
                if previous != "#else" || opening != "#if canImport(FoundationEssentials)" {
                    offenders.append("\(file.lastPathComponent):\(index + 1)")
                }
            }
        }
        XCTAssertEqual(offenders, [], "import FoundationEssentials instead (with Glibc for POSIX calls)")
    }
}
