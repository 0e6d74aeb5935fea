import CLITestSupport
import Foundation
import XCTest

/// Issue 38, "the environment rule, made livable": `moya-cli trust` grants trust by content (a
/// changed byte, a swapped link untrust it again), the store is the user's alone, one run names
/// every variable to allow, a hidden variable's fallback is said, and shadowing is named.
final class TrustCommandTests: XCTestCase {
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        try sandbox.write("targets/shop.yaml", Self.shop)
    }

    static let shop = """
        api: shop
        baseURL: https://shop.example
        headers:
          X-A: "${SHOP_A}"
          X-B: "${SHOP_B}"
          X-Region: "${SHOP_REGION:-eu}"
        cases:
          ping: {path: /ping, sample: ok}
        """

    /// The variables of the user's shell, none allowed.
    let shell = ["SHOP_A": "a1", "SHOP_B": "b2", "SHOP_REGION": "us", "MOYA_ALLOW_ENV": ""]

    var store: String { sandbox.home.appendingPathComponent(".local/state/moya/trust").path }

    func testOneRunNamesEveryVariableAndTheExactLineThatAllowsThem() throws {
        let refused = try sandbox.run(["curl", "shop", "ping"], environment: shell)
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "It reads 3 variables you have set and it may not: SHOP_A, SHOP_B, SHOP_REGION. Allow them with "
                    + #"MOYA_ALLOW_ENV="$MOYA_ALLOW_ENV:SHOP_A:SHOP_B:SHOP_REGION" (export it, or put it before the "#
                    + "command), or trust the file by its content: moya-cli trust targets/shop.yaml"), refused.stderr)
        // Followed literally (MOYA_ALLOW_ENV was empty): it works.
        var allowed = shell
        allowed["MOYA_ALLOW_ENV"] = ":SHOP_A:SHOP_B:SHOP_REGION"
        let sent = try sandbox.run(["curl", "shop", "ping"], environment: allowed)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.contains("-H 'X-A: a1' -H 'X-B: b2' -H 'X-Region: us'"), sent.stdout)
        XCTAssertEqual(sent.stderr, "")
    }

    func testAHiddenVariablesFallbackIsSaidOncePerVariable() throws {
        var environment = shell
        environment["MOYA_ALLOW_ENV"] = "SHOP_A:SHOP_B"
        let result = try sandbox.run(["curl", "shop", "ping"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("-H 'X-Region: eu'"), result.stdout)
        XCTAssertEqual(
            result.stderr,
            "moya-cli: warning: targets/shop.yaml reads ${SHOP_REGION:-...}: SHOP_REGION is set, but hidden from this "
                + "untrusted file, so its fallback is used; allow it with MOYA_ALLOW_ENV=SHOP_REGION, or trust the "
                + "file: moya-cli trust targets/shop.yaml\n")
        // Not set: the fallback is simply the value, nothing said.
        environment["SHOP_REGION"] = nil
        let quiet = try sandbox.run(["curl", "shop", "ping"], environment: environment)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testTrustByContentThenAByteChangedThenRevoked() throws {
        let granted = try sandbox.run(["trust", "targets"], environment: shell)
        XCTAssertEqual(granted.status, 0, granted.stderr)
        let real = try XCTUnwrap(
            realpath(sandbox.path("targets/shop.yaml"), nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            })
        XCTAssertTrue(granted.stdout.hasPrefix("trusted \(real) (SHA-256 "), granted.stdout)
        var info = stat()
        XCTAssertEqual(stat(store, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let sent = try sandbox.run(["curl", "shop", "ping"], environment: shell)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.contains("-H 'X-Region: us'"), sent.stdout)
        XCTAssertTrue(try sandbox.run(["list"], environment: shell).stdout.contains("shop  1      trusted"))

        // One byte changed (as a git pull would): untrusted again, and said.
        try sandbox.write("targets/shop.yaml", Self.shop.replacingOccurrences(of: "shop.example", with: "shop.exbmple"))
        let changed = try sandbox.run(["curl", "shop", "ping"], environment: shell)
        XCTAssertEqual(changed.status, 64, changed.stderr)
        XCTAssertTrue(
            changed.stderr.contains(
                "moya-cli: warning: targets/shop.yaml changed since you trusted it with 'moya-cli trust' (SHA-256 "),
            changed.stderr)
        XCTAssertTrue(changed.stderr.contains("then run 'moya-cli trust targets/shop.yaml' again"), changed.stderr)
        XCTAssertTrue(try sandbox.run(["list"], environment: shell).stdout.contains("shop  1      changed"))
        XCTAssertEqual(try sandbox.run(["trust", "--list"]).stdout, "changed\t\(real)\n")

        // Trusted again, then revoked.
        XCTAssertEqual(try sandbox.run(["trust", "targets/shop.yaml"]).status, 0)
        XCTAssertEqual(try sandbox.run(["trust", "--list"]).stdout, "trusted\t\(real)\n")
        let revoked = try sandbox.run(["trust", "--revoke", "targets"])
        XCTAssertEqual(revoked.stdout, "revoked \(real)\n")
        XCTAssertEqual(try sandbox.run(["trust", "--list"]).stdout, "")
        XCTAssertEqual(try sandbox.run(["curl", "shop", "ping"], environment: shell).status, 64)
        let again = try sandbox.run(["trust", "--revoke", "targets/shop.yaml"])
        XCTAssertEqual(again.status, 64, again.stderr)
    }

    func testALinkSwappedAfterTrustIsNotTrusted() throws {
        try sandbox.write("mine/shop.yaml", Self.shop)
        try sandbox.write("theirs/shop.yaml", Self.shop.replacingOccurrences(of: "shop.example", with: "evil.example"))
        try FileManager.default.removeItem(atPath: sandbox.path("targets/shop.yaml"))
        XCTAssertEqual(symlink(sandbox.path("mine/shop.yaml"), sandbox.path("targets/shop.yaml")), 0)
        XCTAssertEqual(try sandbox.run(["trust", "targets/shop.yaml"]).status, 0)
        XCTAssertEqual(try sandbox.run(["curl", "shop", "ping"], environment: shell).status, 0)
        unlink(sandbox.path("targets/shop.yaml"))
        XCTAssertEqual(symlink(sandbox.path("theirs/shop.yaml"), sandbox.path("targets/shop.yaml")), 0)
        let swapped = try sandbox.run(["curl", "shop", "ping"], environment: shell)
        XCTAssertEqual(swapped.status, 64, swapped.stderr)
        XCTAssertFalse(swapped.stdout.contains("a1"))
    }

    func testAStoreThatIsNotTheUsersAloneIsRefused() throws {
        XCTAssertEqual(try sandbox.run(["trust", "targets"]).status, 0)
        // World-writable: anyone could grant trust.
        chmod(store, 0o666)
        let writable = try sandbox.run(["curl", "shop", "ping"], environment: shell)
        XCTAssertEqual(writable.status, 64, writable.stderr)
        XCTAssertTrue(
            writable.stderr.contains("moya-cli: warning: the trust store \(store) is writable by other users; "),
            writable.stderr)
        let regrant = try sandbox.run(["trust", "targets"])
        XCTAssertEqual(regrant.status, 74, regrant.stderr)
        // A FIFO: refused without blocking.
        unlink(store)
        XCTAssertEqual(mkfifo(store, 0o600), 0)
        let fifo = try sandbox.run(["curl", "shop", "ping"], environment: shell)
        XCTAssertEqual(fifo.status, 64, fifo.stderr)
        XCTAssertTrue(fifo.stderr.contains("is not a regular file"), fifo.stderr)
        XCTAssertEqual(try sandbox.run(["trust", "targets"]).status, 74)
        // A link to a store elsewhere.
        unlink(store)
        try sandbox.write("elsewhere", "")
        XCTAssertEqual(symlink(sandbox.path("elsewhere"), store), 0)
        let linked = try sandbox.run(["trust", "targets"])
        XCTAssertEqual(linked.status, 74, linked.stderr)
        XCTAssertTrue(linked.stderr.contains("is a symbolic link"), linked.stderr)
        XCTAssertEqual(try String(contentsOfFile: sandbox.path("elsewhere"), encoding: .utf8), "")
        // No command writes into the store's folder.
        unlink(store)
        let download = try sandbox.run(["curl", "shop", "ping", "-o", store], environment: shell)
        XCTAssertNotEqual(download.status, 0)
    }

    func testAPathWithALineBreakIsOneGrant() throws {
        try sandbox.write("odd\nname/shop.yaml", Self.shop)
        let granted = try sandbox.run(["trust", "odd\nname/shop.yaml"])
        XCTAssertEqual(granted.status, 0, granted.stderr)
        XCTAssertFalse(granted.stdout.dropLast().contains("\n"), granted.stdout)
        let text = try String(contentsOfFile: store, encoding: .utf8)
        XCTAssertTrue(text.contains("odd%0Aname/shop.yaml\n"), text)
        XCTAssertEqual(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count, 1)
        let result = try sandbox.run(
            ["curl", "shop", "ping", "--targets", "odd\nname/shop.yaml"], environment: shell)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testAnUntrustedFileShadowingATrustedOneIsNamed() throws {
        try sandbox.write(
            "home/.config/moya/targets/shop.yaml",
            Self.shop.replacingOccurrences(of: "shop.example", with: "mine.example"))
        var environment = shell
        environment["MOYA_ALLOW_ENV"] = "SHOP_A:SHOP_B:SHOP_REGION"
        let result = try sandbox.run(["curl", "shop", "ping"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("https://shop.example/ping"), result.stdout)
        let trusted = try XCTUnwrap(
            realpath(sandbox.path("home/.config/moya/targets/shop.yaml"), nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            })
        XCTAssertEqual(
            result.stderr,
            "moya-cli: warning: API 'shop' is defined by targets/shop.yaml, which is not trusted, and by \(trusted), "
                + "which is; targets/shop.yaml is used (the first place found wins: --targets, MOYA_TARGETS_PATH, "
                + "./targets, then ~/.config/moya/targets), and it reads only the variables MOYA_ALLOW_ENV allows and "
                + "runs no command; rename one with 'api:', or trust it if it is yours (moya-cli trust)\n")
        // Trusted by content: no warning.
        XCTAssertEqual(try sandbox.run(["trust", "targets"]).status, 0)
        XCTAssertEqual(try sandbox.run(["curl", "shop", "ping"], environment: environment).stderr, "")
    }
    /// The "next:" hint after an import that needs variables names the trust step, and works when
    /// followed literally.
    func testTheImportHintNamesTheTrustStepAndWorksAsWritten() throws {
        let spec = CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi/petstore.yaml").path
        let imported = try sandbox.run(["import", "openapi", spec], environment: ["MOYA_ALLOW_ENV": ""])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let next = try XCTUnwrap(imported.stderr.split(separator: "\n").first { $0.hasPrefix("import: next: ") })
        XCTAssertEqual(
            next,
            "import: next: moya-cli trust targets/pet-store.yaml (or MOYA_ALLOW_ENV=MOYA_PET_STORE_BEARER_AUTH_TOKEN:"
                + "MOYA_PET_STORE_BASIC_AUTH_USERNAME:MOYA_PET_STORE_BASIC_AUTH_PASSWORD:MOYA_PET_STORE_API_KEY:"
                + "MOYA_PET_STORE_QUERY_KEY); moya-cli list pet-store; moya-cli check pet-store")
        let token = ["MOYA_PET_STORE_BEARER_AUTH_TOKEN": "tok-1234567", "MOYA_ALLOW_ENV": ""]
        let before = try sandbox.run(["curl", "pet-store", "listPets"], environment: token)
        XCTAssertEqual(before.status, 64, before.stderr)
        XCTAssertEqual(try sandbox.run(["trust", "targets/pet-store.yaml"]).status, 0)
        let after = try sandbox.run(["curl", "pet-store", "listPets", "--show-secrets"], environment: token)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stdout.contains("Bearer tok-1234567"), after.stdout)
    }

    /// `import curl`, `import har` and `import postman` end with the same "next:" line as
    /// `import openapi`: a file that reads a secret names the trust step, and the line works when
    /// followed literally.
    func testEveryImportEndsWithANextLineThatWorksAsWritten() throws {
        try sandbox.write("orders.sh", "curl -H 'Authorization: Bearer abc123xyz' https://orders.example/v1/orders\n")
        let imported = try sandbox.run(
            ["import", "curl", "orders.sh", "--api", "orders", "--case", "list"], environment: ["MOYA_ALLOW_ENV": ""])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(
            imported.stderr.hasSuffix(
                "import: next: moya-cli trust targets/orders.yaml (or MOYA_ALLOW_ENV=MOYA_ORDERS_AUTHORIZATION); "
                    + "moya-cli list orders; moya-cli check orders\n"), imported.stderr)
        let token = ["MOYA_ORDERS_AUTHORIZATION": "Bearer tok-98765", "MOYA_ALLOW_ENV": ""]
        XCTAssertEqual(try sandbox.run(["curl", "orders", "list"], environment: token).status, 64)
        XCTAssertEqual(try sandbox.run(["trust", "targets/orders.yaml"]).status, 0)
        let after = try sandbox.run(["curl", "orders", "list", "--show-secrets"], environment: token)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stdout.contains("Bearer tok-98765"), after.stdout)
        // Nothing to allow: the line still says what to run next, without a trust step.
        try sandbox.write("plain.sh", "curl https://plain.example/v1/ping\n")
        let plain = try sandbox.run(["import", "curl", "plain.sh", "--api", "plain", "--case", "ping"])
        XCTAssertTrue(
            plain.stderr.hasSuffix("import: next: moya-cli list plain; moya-cli check plain\n"), plain.stderr)
    }
}
