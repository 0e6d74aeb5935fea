import Foundation
import TargetAuth
import XCTest

/// The on-disk token cache: private modes, atomic files, and files it must not believe.
final class TokenCacheStoreTests: XCTestCase {
    var folder: URL!
    var warnings: WarningLog!
    var store: TokenCacheStore!
    let secretDigest = OAuth2CacheKey.digest(ofSecret: "client-secret")
    let key = OAuth2CacheKey(
        apiName: "guarded", tokenURL: "https://auth.example/token", clientID: "client",
        clientSecretDigest: OAuth2CacheKey.digest(ofSecret: "client-secret"), scopes: ["write", "read"],
        origin: "https://api.example:443")
    let token = OAuth2Token(
        accessToken: "access-123", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "read write",
        refreshToken: "refresh-456")

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("moya-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        warnings = WarningLog()
        let log = warnings!
        store = TokenCacheStore(folder: folder.path + "/cache/moya-cli", warn: { log.append($0) })
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testASavedTokenLoadsBackFromAPrivateFile() throws {
        store.save(token, for: key)
        XCTAssertEqual(store.load(key), token)
        XCTAssertEqual(try mode(store.path(for: key)), 0o600)
        XCTAssertEqual(try mode(store.folder), 0o700)
        XCTAssertEqual(warnings.all, [])
        // Only the token file is left: the temporary file was renamed.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.folder), [key.fileName])
    }

    func testTheFileNameHoldsNoClientDataAndScopeOrderDoesNotMatter() {
        XCTAssertTrue(key.fileName.hasPrefix("oauth2-guarded-"), key.fileName)
        XCTAssertFalse(key.fileName.contains("client"))
        XCTAssertEqual(
            key.fileName,
            OAuth2CacheKey(
                apiName: "guarded", tokenURL: "https://auth.example/token", clientID: "client",
                clientSecretDigest: secretDigest, scopes: ["read", "write"], origin: "https://api.example:443"
            ).fileName)
        XCTAssertNotEqual(
            key.fileName,
            OAuth2CacheKey(
                apiName: "guarded", tokenURL: "https://auth.example/token", clientID: "other",
                clientSecretDigest: secretDigest, scopes: ["read", "write"], origin: "https://api.example:443"
            ).fileName)
    }

    /// Everything that makes a token valid for a place is in the key: another secret or another
    /// origin is another key, another file, and a file copied under this key's name is not believed.
    func testTheSecretAndTheOriginArePartOfTheKey() throws {
        var otherSecret = key
        otherSecret.clientSecretDigest = OAuth2CacheKey.digest(ofSecret: "/home/attacker")
        var otherOrigin = key
        otherOrigin.origin = "http://127.0.0.1:8081"
        for other in [otherSecret, otherOrigin] {
            XCTAssertNotEqual(other, key)
            XCTAssertNotEqual(other.fileName, key.fileName)
        }
        store.save(token, for: key)
        XCTAssertNil(store.load(otherSecret))
        XCTAssertNil(store.load(otherOrigin))
        try FileManager.default.copyItem(atPath: store.path(for: key), toPath: store.path(for: otherOrigin))
        XCTAssertNil(store.load(otherOrigin), "a token file of another origin is not believed under this key")
        // The secret itself is written nowhere.
        let text = try String(contentsOfFile: store.path(for: key), encoding: .utf8)
        XCTAssertFalse(text.contains("client-secret"), text)
        XCTAssertTrue(text.contains(key.clientSecretDigest), text)
    }

    func testASymlinkIsNotFollowed() throws {
        store.save(token, for: key)
        let path = store.path(for: key)
        let planted = folder.appendingPathComponent("planted.json").path
        try FileManager.default.moveItem(atPath: path, toPath: planted)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: planted)
        XCTAssertNil(store.load(key))
        XCTAssertTrue(warnings.all.contains { $0.contains("symbolic link") }, "\(warnings.all)")
        // Saving replaces the link itself; the file it pointed to is untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: planted))
        store.save(OAuth2Token(accessToken: "access-new"), for: key)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: planted)), before)
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: path))
        XCTAssertEqual(store.load(key)?.accessToken, "access-new")
    }

    func testAFileOthersCanReadIsIgnored() throws {
        store.save(token, for: key)
        chmod(store.path(for: key), 0o644)
        XCTAssertNil(store.load(key))
        XCTAssertTrue(warnings.all.contains { $0.contains("mode 644") }, "\(warnings.all)")
        // Any bit for the group alone, or for others alone, is enough to ignore it.
        for mode: mode_t in [0o640, 0o620, 0o610, 0o604, 0o602, 0o601] {
            chmod(store.path(for: key), mode)
            XCTAssertNil(store.load(key), String(mode, radix: 8))
        }
        chmod(store.path(for: key), 0o600)
        XCTAssertEqual(store.load(key)?.accessToken, "access-123")
    }

    func testAFileOfAnotherUserIsIgnored() throws {
        store.save(token, for: key)
        // Giving a file away needs root; elsewhere there is nothing to test.
        guard chown(store.path(for: key), 65534, 65534) == 0 else { throw XCTSkip("chown needs root") }
        XCTAssertNil(store.load(key))
        XCTAssertTrue(warnings.all.contains { $0.contains("belongs to another user") }, "\(warnings.all)")
    }

    func testAFIFOIsIgnoredWithoutBlocking() throws {
        _ = store.ensureFolderForTests()
        XCTAssertEqual(mkfifo(store.path(for: key), 0o600), 0)
        XCTAssertNil(store.load(key))
        XCTAssertTrue(warnings.all.contains { $0.contains("not a regular file") }, "\(warnings.all)")
    }

    func testGarbageAndAnotherKeysFileAreIgnored() throws {
        _ = store.ensureFolderForTests()
        let path = store.path(for: key)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: path, contents: Data("{not json".utf8), attributes: [.posixPermissions: 0o600]))
        XCTAssertNil(store.load(key))
        // A file of another key under this key's name (a hash collision, or a copied file).
        let other = OAuth2CacheKey(
            apiName: "guarded", tokenURL: "https://evil.example/token", clientID: "client",
            clientSecretDigest: secretDigest, scopes: [], origin: "https://api.example:443")
        store.save(token, for: other)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: store.path(for: other), toPath: path)
        XCTAssertNil(store.load(key))
        XCTAssertEqual(warnings.all.count, 2, "\(warnings.all)")
    }

    func testAHugeFileIsIgnored() throws {
        _ = store.ensureFolderForTests()
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: store.path(for: key), contents: Data(count: 1 << 20), attributes: [.posixPermissions: 0o600]))
        XCTAssertNil(store.load(key))
        XCTAssertTrue(warnings.all.contains { $0.contains("larger than") }, "\(warnings.all)")
    }

    func testAnOpenFolderIsMadePrivateAndASymlinkedFolderRefused() throws {
        try FileManager.default.createDirectory(
            atPath: store.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        chmod(store.folder, 0o777)
        store.save(token, for: key)
        XCTAssertEqual(try mode(store.folder), 0o700)
        XCTAssertEqual(store.load(key), token)

        let elsewhere = folder.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let linked = TokenCacheStore(folder: folder.path + "/linked", warn: { [warnings] in warnings!.append($0) })
        try FileManager.default.createSymbolicLink(atPath: linked.folder, withDestinationPath: elsewhere)
        linked.save(token, for: key)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
        XCTAssertTrue(warnings.all.contains { $0.contains("not a directory") }, "\(warnings.all)")
    }

    func testRemoveAllForgetsOnlyThatAPIsTokens() throws {
        store.save(token, for: key)
        let other = OAuth2CacheKey(
            apiName: "guarded-two", tokenURL: "https://auth.example/token", clientID: "client",
            clientSecretDigest: secretDigest, scopes: [], origin: "https://api.example:443")
        store.save(token, for: other)
        XCTAssertEqual(store.removeAll(apiName: "guarded"), [store.path(for: key)])
        XCTAssertNil(store.load(key))
        XCTAssertEqual(store.load(other), token)
    }

    func testTheDefaultFolderFollowsXDG() {
        XCTAssertEqual(
            TokenCacheStore.defaultFolder(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]),
            "/x/cache/moya-cli")
        XCTAssertEqual(
            TokenCacheStore.defaultFolder(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]),
            "/home/u/.cache/moya-cli")
        XCTAssertNil(TokenCacheStore.defaultFolder(environment: [:]))
    }
}

/// Warnings collected from any thread.
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func append(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}

extension TokenCacheStore {
    /// Makes the folder, as saving does.
    func ensureFolderForTests() -> Bool {
        (try? FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
    }
}
