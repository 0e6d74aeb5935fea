import Foundation
import XCTest

/// Every Swift keyword and contextual keyword as a case name, a value name and an enum member
/// (`Tests/Fixtures/generate/keywords.yaml`): what `generate swift` writes now is type-checked
/// against the MoyaKit this test was built with, by the toolchain's `swiftc`. The committed
/// `Generated/Keywords.swift` is compiled with the tests too; this catches a generator that
/// changed since, without `make generated-swift`.
final class KeywordNamesCompileTests: XCTestCase {
    /// The toolchain's `swiftc`: beside `swift` on PATH, else under /opt/swift.
    private static var compiler: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swiftc" } + ["/opt/swift/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map(URL.init(fileURLWithPath:))
    }

    func testEveryKeywordAsACaseValueAndMemberNameCompiles() throws {
        let compiler = try XCTUnwrap(Self.compiler, "no swiftc on PATH or in /opt/swift")
        let modules = GeneratedBinary.url.deletingLastPathComponent().appendingPathComponent("Modules")
        try XCTSkipUnless(
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("MoyaKit.swiftmodule").path),
            "no MoyaKit.swiftmodule beside the test bundle")
        let root = GeneratedBinary.repositoryRoot
        let folder = try makeTemporaryFolder()
        let generated = try GeneratedBinary.run(
            [
                "generate", "swift", "--module", "MoyaKit", "keywords", "--targets",
                root.appendingPathComponent("Tests/Fixtures/generate").path,
                "--examples"
            ],
            in: folder)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let source = folder.appendingPathComponent("Keywords.swift")
        try generated.stdout.write(to: source)

        // The C modules MoyaKit's modules import: the system libraries' maps in Sources, and the
        // ones SwiftPM wrote for the package's C targets.
        let build = GeneratedBinary.url.deletingLastPathComponent()
        var moduleMaps = ["CCurl", "CYAML"].map { root.appendingPathComponent("Sources/\($0)/module.modulemap").path }
        for name in try FileManager.default.contentsOfDirectory(atPath: build.path) where name.hasSuffix(".build") {
            let map = build.appendingPathComponent(name).appendingPathComponent("module.modulemap").path
            if FileManager.default.fileExists(atPath: map) { moduleMaps.append(map) }
        }
        let process = Process()
        process.executableURL = compiler
        process.arguments =
            ["-typecheck", "-I", modules.path] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=" + $0] } + [
                source.path
            ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let diagnostics = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(
            process.terminationStatus, 0, "the generated enum does not compile:\n\(diagnostics.prefix(4000))")
    }
}
