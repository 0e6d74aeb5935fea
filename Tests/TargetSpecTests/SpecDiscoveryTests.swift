import TargetModel
import TargetSpec
import XCTest

/// Discovery over real temporary folders: explicit > MOYA_TARGETS (else MOYA_TARGETS_PATH) > ./targets > XDG > share.
final class SpecDiscoveryTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = try SpecTest.temporaryFolder(self)
    }

    /// A valid target file for API `name` whose description says where it is.
    private func writeAPI(_ name: String, at path: String, description: String, apiKey: Bool = true) throws {
        let api = apiKey ? "api: \(name)\n" : ""
        try SpecTest.write(
            api
                + "description: \(description)\nbaseURL: https://\(name).example\ncases:\n  ping: {path: /ping, sample: pong}\n",
            to: root + "/" + path)
    }

    private func searchPath(explicit: [String] = [], environment: [String: String]? = nil) -> SearchPath {
        SearchPath.standard(
            explicitPaths: explicit,
            environment: environment ?? ["XDG_CONFIG_HOME": root + "/xdg", "HOME": root + "/home"],
            currentDirectory: root + "/work",
            executablePath: root + "/prefix/bin/moya-cli")
    }

    func testStandardSearchPathOrder() {
        let path = searchPath(
            explicit: ["extra", "/abs/one.yaml"], environment: ["MOYA_TARGETS_PATH": "a::/b", "HOME": "/home/kim"])
        XCTAssertEqual(
            path.locations.map { "\($0.source): \($0.displayPath) -> \($0.path)" },
            [
                "--targets: extra -> \(root)/work/extra",
                "--targets: /abs/one.yaml -> /abs/one.yaml",
                "MOYA_TARGETS_PATH: a -> \(root)/work/a",
                "MOYA_TARGETS_PATH: /b -> /b",
                "./targets: targets -> \(root)/work/targets",
                "user configuration: /home/kim/.config/moya/targets -> /home/kim/.config/moya/targets",
                "share folder: \(root)/prefix/share/moya-cli/targets -> \(root)/prefix/share/moya-cli/targets"
            ])
        XCTAssertEqual(
            searchPath().locations.first { $0.level == .userConfiguration }?.path, root + "/xdg/moya/targets")
        // MOYA_TARGETS, the documented name, wins over MOYA_TARGETS_PATH; an empty one does not count.
        let environmentLevel = { (environment: [String: String]) in
            self.searchPath(environment: environment).locations.filter { $0.level == .environmentVariable }.map {
                "\($0.source): \($0.displayPath)"
            }
        }
        XCTAssertEqual(
            environmentLevel(["MOYA_TARGETS": "new:/x", "MOYA_TARGETS_PATH": "old"]),
            ["MOYA_TARGETS: new", "MOYA_TARGETS: /x"])
        XCTAssertEqual(environmentLevel(["MOYA_TARGETS": "", "MOYA_TARGETS_PATH": "old"]), ["MOYA_TARGETS_PATH: old"])
        XCTAssertEqual(environmentLevel([:]), [])
    }

    func testFirstLevelWinsAndLaterOnesAreShadowed() throws {
        try writeAPI("github", at: "share/github.yaml", description: "share")
        try writeAPI("github", at: "xdg/moya/targets/github.yaml", description: "xdg")
        try writeAPI("github", at: "work/targets/github.yml", description: "cwd")
        try writeAPI("github", at: "env/github.yaml", description: "env")
        try writeAPI("github", at: "explicit/gh.yaml", description: "explicit")
        try writeAPI("httpbin", at: "prefix/share/moya-cli/targets/httpbin.yaml", description: "share")
        try writeAPI("zen", at: "xdg/moya/targets/zen.yaml", description: "xdg")
        try SpecTest.write("not a target", to: root + "/work/targets/README.md")

        let environment = ["MOYA_TARGETS_PATH": root + "/env", "XDG_CONFIG_HOME": root + "/xdg"]
        var catalog = try TargetDiscovery(
            searchPath: searchPath(explicit: [root + "/explicit"], environment: environment)
        ).discover()
        XCTAssertEqual(catalog.diagnostics, [])
        XCTAssertEqual(catalog.apiNames, ["github", "zen", "httpbin"])
        XCTAssertEqual(try catalog.api(named: "github").description, "explicit")
        XCTAssertEqual(
            catalog.shadowed.map { "\($0.source): \($0.file) by \($0.shadowedBy ?? "")" },
            [
                "MOYA_TARGETS_PATH: \(root)/env/github.yaml by \(root)/explicit/gh.yaml",
                "./targets: targets/github.yml by \(root)/explicit/gh.yaml",
                "user configuration: \(root)/xdg/moya/targets/github.yaml by \(root)/explicit/gh.yaml"
            ])

        catalog = try TargetDiscovery(searchPath: searchPath(environment: environment)).discover()
        XCTAssertEqual(try catalog.api(named: "github").description, "env")
        catalog = try TargetDiscovery(searchPath: searchPath(environment: ["XDG_CONFIG_HOME": root + "/xdg"]))
            .discover()
        XCTAssertEqual(try catalog.api(named: "github").description, "cwd")
        XCTAssertEqual(catalog.entries.first?.file, "targets/github.yml", "./targets files are shown relative")
        try FileManager.default.removeItem(atPath: root + "/work/targets")
        catalog = try TargetDiscovery(searchPath: searchPath(environment: ["XDG_CONFIG_HOME": root + "/xdg"]))
            .discover()
        XCTAssertEqual(try catalog.api(named: "github").description, "xdg")
        XCTAssertEqual(try catalog.api(named: "httpbin").description, "share")
        XCTAssertThrowsError(try catalog.api(named: "githb")) { error in
            XCTAssertEqual(
                "\(error)",
                "unknown API 'githb'; searched: ./targets (missing), \(root)/xdg/moya/targets (user configuration), "
                    + "\(root)/prefix/share/moya-cli/targets (share folder); did you mean 'github'?")
        }
    }

    func testSameNameTwiceAtOneLevelIsAnError() throws {
        try writeAPI("github", at: "work/targets/a.yaml", description: "a")
        try writeAPI("github", at: "work/targets/b.yaml", description: "b")
        let catalog = try TargetDiscovery(searchPath: searchPath()).discover()
        XCTAssertTrue(catalog.hasErrors)
        XCTAssertEqual(
            catalog.renderedDiagnostics(),
            """
            targets/b.yaml: error: API 'github' is defined twice at the same level (./targets): targets/a.yaml and targets/b.yaml; rename one with 'api:'

            """)
    }

    func testFolderScanIsSortedAndNotRecursive() throws {
        try writeAPI("b", at: "work/targets/b.yml", description: "b", apiKey: false)
        try writeAPI("a", at: "work/targets/a.yaml", description: "a", apiKey: false)
        try writeAPI("deep", at: "work/targets/sub/deep.yaml", description: "deep")
        try FileManager.default.createDirectory(
            atPath: root + "/work/targets/folder.yaml", withIntermediateDirectories: true)
        let (files, warnings) = try TargetDiscovery(searchPath: searchPath()).sourceFiles()
        XCTAssertEqual(files.map(\.displayPath), ["targets/a.yaml", "targets/b.yml"])
        XCTAssertEqual(warnings, [])
    }

    func testMissingPaths() throws {
        XCTAssertThrowsError(try TargetDiscovery(searchPath: searchPath(explicit: ["nowhere"])).discover()) { error in
            XCTAssertEqual(error as? DiscoveryError, .missingTargetsPath("nowhere"))
            XCTAssertEqual("\(error)", "--targets path 'nowhere' does not exist")
        }
        let catalog = try TargetDiscovery(searchPath: searchPath(environment: ["MOYA_TARGETS_PATH": "/no/such/folder"]))
            .discover()
        XCTAssertEqual(catalog.entries.count, 0, "missing default folders are skipped")
        XCTAssertEqual(
            catalog.renderedDiagnostics(),
            "/no/such/folder: warning: MOYA_TARGETS_PATH names '/no/such/folder', which does not exist; skipped\n")
    }

    func testABrokenFileClaimsItsNameAndReportsItsErrors() throws {
        try SpecTest.write(
            "baseURL: https://x.example\ncases:\n  ping: {path: ping, sample: x}\n",
            to: root + "/work/targets/github.yaml")
        try writeAPI("github", at: "xdg/moya/targets/github.yaml", description: "xdg")
        let catalog = try TargetDiscovery(searchPath: searchPath()).discover()
        XCTAssertEqual(
            catalog.renderedDiagnostics(),
            """
            targets/github.yaml:3:16: error: a path starts with '/'; write '/ping'
                  ping: {path: ping, sample: x}
                               ^

            """)
        XCTAssertThrowsError(try catalog.api(named: "github")) { error in
            XCTAssertEqual(
                "\(error)",
                "API 'github' is defined by targets/github.yaml, which has errors; run 'moya-cli validate targets/github.yaml'"
            )
        }
        XCTAssertEqual(catalog.shadowed.map(\.file), [root + "/xdg/moya/targets/github.yaml"])
    }

    func testTheSameFileReachedTwiceIsLoadedOnce() throws {
        try writeAPI("github", at: "work/targets/github.yaml", description: "cwd")
        let catalog = try TargetDiscovery(searchPath: searchPath(explicit: ["targets/github.yaml"])).discover()
        XCTAssertEqual(catalog.diagnostics, [])
        XCTAssertEqual(catalog.entries.map(\.file), ["targets/github.yaml"])
        XCTAssertEqual(catalog.entries.map(\.level), [.explicit])
        XCTAssertEqual(catalog.shadowed.count, 0)
    }

    // MARK: Stopping after the level that defines one API

    /// Invalid YAML: loading it at all would put an error in the catalog.
    private let unparsable = "cases: [unclosed\n"

    func testStoppingAfterTheWinningLevelLeavesLaterLevelsUnread() throws {
        try writeAPI("github", at: "explicit/github.yaml", description: "explicit")
        try writeAPI("zen", at: "explicit/zen.yaml", description: "explicit")
        try SpecTest.write(unparsable, to: root + "/work/targets/github.yaml")
        try SpecTest.write(unparsable, to: root + "/xdg/moya/targets/other.yaml")
        var path = searchPath(
            explicit: [root + "/explicit"],
            environment: ["MOYA_TARGETS_PATH": root + "/missing", "XDG_CONFIG_HOME": root + "/xdg"])
        // A later location that must exist but does not: a full discovery fails on it, so a
        // discovery that succeeds never even looked at it.
        path.locations.append(
            SearchPath.Location(level: .share, path: root + "/nowhere", displayPath: "nowhere", mustExist: true))
        let discovery = TargetDiscovery(searchPath: path)
        XCTAssertThrowsError(try discovery.discover()) { error in
            XCTAssertEqual(error as? DiscoveryError, .missingTargetsPath("nowhere"))
        }

        let catalog = try discovery.discover(stoppingAfterLevelDefining: "github")
        XCTAssertEqual(
            catalog.files, [root + "/explicit/github.yaml", root + "/explicit/zen.yaml"],
            "the whole winning level, nothing after it")
        XCTAssertEqual(catalog.diagnostics, [], "no MOYA_TARGETS_PATH warning, no error from the unparsable files")
        XCTAssertEqual(catalog.apiNames, ["github", "zen"])
        XCTAssertEqual(catalog.shadowed.count, 0)
        XCTAssertEqual(try catalog.api(named: "github").description, "explicit")

        // The same files are errors when every level is read.
        path.locations.removeLast()
        let full = try TargetDiscovery(searchPath: path).discover()
        XCTAssertEqual(full.files.count, 4)
        XCTAssertEqual(
            Set(full.diagnostics.filter { $0.severity == .error }.map(\.file)),
            ["targets/github.yaml", root + "/xdg/moya/targets/other.yaml"])
        XCTAssertEqual(full.diagnostics.filter { $0.severity == .warning }.map(\.file), [root + "/missing"])
    }

    func testStoppingAtALaterLevelReadsTheLevelsBeforeIt() throws {
        try writeAPI("zen", at: "env/zen.yaml", description: "env")
        try writeAPI("github", at: "work/targets/github.yaml", description: "cwd")
        try writeAPI("github", at: "xdg/moya/targets/github.yaml", description: "xdg")
        try SpecTest.write(unparsable, to: root + "/xdg/moya/targets/broken.yaml")
        let path = searchPath(environment: ["MOYA_TARGETS_PATH": root + "/env", "XDG_CONFIG_HOME": root + "/xdg"])
        let catalog = try TargetDiscovery(searchPath: path).discover(stoppingAfterLevelDefining: "github")
        XCTAssertEqual(catalog.files, [root + "/env/zen.yaml", "targets/github.yaml"])
        XCTAssertEqual(catalog.diagnostics, [])
        XCTAssertEqual(try catalog.api(named: "github").description, "cwd")
        XCTAssertEqual(try catalog.api(named: "zen").description, "env", "an API of an earlier level is complete too")
    }

    func testStoppingStillReportsATwinAtTheWinningLevel() throws {
        try writeAPI("github", at: "a/github.yaml", description: "a")
        try writeAPI("github", at: "b/github.yaml", description: "b")
        try SpecTest.write(unparsable, to: root + "/work/targets/github.yaml")
        // Two `--targets` folders are one level: the second is read although the first defines the name.
        let catalog = try TargetDiscovery(searchPath: searchPath(explicit: [root + "/a", root + "/b"])).discover(
            stoppingAfterLevelDefining: "github")
        XCTAssertEqual(catalog.files, [root + "/a/github.yaml", root + "/b/github.yaml"])
        XCTAssertEqual(
            catalog.renderedDiagnostics(),
            """
            \(root)/b/github.yaml: error: API 'github' is defined twice at the same level (--targets): \(root)/a/github.yaml and \(root)/b/github.yaml; rename one with 'api:'

            """)
        XCTAssertThrowsError(try catalog.api(named: "github")) { error in
            XCTAssertEqual(
                error as? SpecLookupError,
                .duplicateAPI("github", files: [root + "/a/github.yaml", root + "/b/github.yaml"]))
        }
    }

    func testStoppingLetsABrokenFileClaimItsName() throws {
        try SpecTest.write(
            "baseURL: https://x.example\ncases:\n  ping: {path: ping, sample: x}\n",
            to: root + "/work/targets/github.yaml")
        try writeAPI("github", at: "xdg/moya/targets/github.yaml", description: "xdg")
        let catalog = try TargetDiscovery(searchPath: searchPath()).discover(stoppingAfterLevelDefining: "github")
        XCTAssertEqual(catalog.files, ["targets/github.yaml"], "the good definition below is not reached")
        XCTAssertEqual(catalog.diagnostics.map(\.file), ["targets/github.yaml"])
        XCTAssertThrowsError(try catalog.api(named: "github")) { error in
            XCTAssertEqual(error as? SpecLookupError, .invalidAPI("github", file: "targets/github.yaml"))
        }
    }

    func testAnUnknownNameReadsEveryLevel() throws {
        try writeAPI("github", at: "explicit/github.yaml", description: "explicit")
        try writeAPI("httpbin", at: "work/targets/httpbin.yaml", description: "cwd")
        try writeAPI("github", at: "xdg/moya/targets/github.yaml", description: "xdg")
        try writeAPI("zen", at: "prefix/share/moya-cli/targets/zen.yaml", description: "share")
        let path = searchPath(
            explicit: [root + "/explicit"],
            environment: ["MOYA_TARGETS_PATH": root + "/missing", "XDG_CONFIG_HOME": root + "/xdg"])
        let partial = try TargetDiscovery(searchPath: path).discover(stoppingAfterLevelDefining: "githb")
        let full = try TargetDiscovery(searchPath: path).discover()
        XCTAssertEqual(partial.files, full.files)
        XCTAssertEqual(partial.files.count, 4)
        XCTAssertEqual(partial.diagnostics, full.diagnostics)
        XCTAssertEqual(partial.diagnostics.map(\.file), [root + "/missing"])
        XCTAssertEqual(partial.shadowed.map(\.file), [root + "/xdg/moya/targets/github.yaml"])
        XCTAssertThrowsError(try partial.api(named: "githb")) { error in
            XCTAssertEqual(
                error as? SpecLookupError,
                .unknownAPI(
                    "githb", suggestion: "github", available: ["github", "httpbin", "zen"],
                    searched:
                        "\(root)/explicit (--targets), \(root)/missing (MOYA_TARGETS_PATH, missing), ./targets, \(root)/xdg/moya/targets (user configuration), "
                        + "\(root)/prefix/share/moya-cli/targets (share folder)"))
        }
    }

    func testLoaderFacadeReadsFilesAndResolvesRelativePaths() throws {
        try SpecTest.write("{\"ok\": true}", to: root + "/t/samples/ok.json")
        try SpecTest.write(
            "baseURL: https://x.example\ncases:\n  ping: {path: /ping, sample: {file: samples/ok.json}}\n",
            to: root + "/t/x.yaml")
        let result = TargetFileLoader.load(path: root + "/t/x.yaml")
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.api?.resolvedPath("samples/ok.json"), root + "/t/samples/ok.json")
        let missing = TargetFileLoader.load(path: root + "/t/none.yaml", file: "t/none.yaml")
        XCTAssertNil(missing.api)
        XCTAssertEqual(missing.apiName, "none")
        XCTAssertEqual(
            missing.renderedDiagnostics(), "t/none.yaml: error: cannot read the file: no such file or directory\n")
    }
}
