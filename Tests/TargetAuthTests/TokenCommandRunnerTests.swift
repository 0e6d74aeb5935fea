import Foundation
import TargetAuth
import TargetSpec
import XCTest

/// Token commands: run without a shell, first line taken, failures reported, and the trust rule.
final class TokenCommandRunnerTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("moya-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func script(_ body: String) throws -> String {
        let path = folder.appendingPathComponent("token-\(UUID().uuidString).sh").path
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: path, contents: Data("#!/bin/sh\n\(body)\n".utf8), attributes: [.posixPermissions: 0o700]))
        return path
    }

    private func run(_ arguments: [String], timeout: Double = 10) throws -> String {
        try TokenCommandRunner().token(
            for: .init(apiName: "api", arguments: arguments, timeout: timeout, file: "/dev/null"))
    }

    private func error(_ arguments: [String], timeout: Double = 10) -> String {
        do {
            return "no error: " + (try run(arguments, timeout: timeout))
        } catch {
            return (error as? AccessTokenError)?.message ?? "\(error)"
        }
    }

    func testTheFirstLineTrimmedIsTheToken() throws {
        XCTAssertEqual(try run([try script("printf '  tok-123 \\r\\nsecond line\\n'")]), "tok-123")
        // Arguments reach the program as they are: no shell, no expansion.
        XCTAssertEqual(try run(["/bin/echo", "$HOME;touch-nothing"]), "$HOME;touch-nothing")
    }

    func testFailuresSayWhat() throws {
        XCTAssertEqual(error([try script("echo oops >&2; exit 3")]).hasSuffix("failed with exit status 3"), true)
        XCTAssertTrue(error([try script("echo")]).hasSuffix("printed no token on its first line"))
        XCTAssertTrue(error([try script("echo 'two words'")]).contains("cannot be a token"))
        XCTAssertTrue(error([folder.appendingPathComponent("missing").path]).contains("cannot run the token command"))
        XCTAssertTrue(error([try script("kill -9 $$")]).contains("killed by signal 9"))
    }

    func testATimeoutStopsTheCommand() throws {
        let start = Date()
        let message = error([try script("exec sleep 30")], timeout: 0.3)
        XCTAssertTrue(message.contains("did not finish within 0.3 s"), message)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testEndlessOutputIsCut() throws {
        XCTAssertEqual(try run(["/usr/bin/yes", "tok-2"]), "tok-2")
        XCTAssertEqual(try run([try script("echo tok-1; exec yes")]), "tok-1")
    }

    func testOnlyTrustedFilesRunCommands() throws {
        let trusted = folder.appendingPathComponent("trusted")
        try FileManager.default.createDirectory(at: trusted, withIntermediateDirectories: true)
        let file = trusted.appendingPathComponent("api.yaml").path
        XCTAssertTrue(
            FileManager.default.createFile(atPath: file, contents: Data(), attributes: [.posixPermissions: 0o644]))
        let outside = folder.appendingPathComponent("api.yaml").path
        XCTAssertTrue(
            FileManager.default.createFile(atPath: outside, contents: Data(), attributes: [.posixPermissions: 0o644]))

        let trust = TargetTrust(environment: [
            "MOYA_TRUSTED_TARGETS": "relative:" + trusted.path, "HOME": "/nonexistent"
        ])
        XCTAssertNil(trust.refusal(for: file))
        XCTAssertTrue(
            trust.refusal(for: outside)?.contains(
                "not in ~/.config/moya/targets or under a path listed in MOYA_TRUSTED_TARGETS") == true)
        // A trusted folder's name as a prefix of another folder's is not enough.
        XCTAssertTrue(TargetTrust(trustedPaths: [folder.path + "/tru"]).refusal(for: file) != nil)
        chmod(file, 0o664)
        XCTAssertTrue(trust.refusal(for: file)?.contains("writable by other users") == true)
        // The user's own targets folder is trusted without MOYA_TRUSTED_TARGETS.
        let config = folder.appendingPathComponent("config/moya/targets")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let own = config.appendingPathComponent("api.yaml").path
        XCTAssertTrue(
            FileManager.default.createFile(atPath: own, contents: Data(), attributes: [.posixPermissions: 0o600]))
        XCTAssertNil(TargetTrust(environment: ["XDG_CONFIG_HOME": folder.path + "/config"]).refusal(for: own))
    }
}
