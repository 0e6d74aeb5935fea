import Foundation
import PositionedYAML
import TargetModel
import XCTest

@testable import TargetSpec

/// The load cache (`LoadCache`) must give exactly what loading the file gives, and nothing it
/// cannot vouch for: every model type round-trips through its compact form, a hit equals a load,
/// and an entry that is damaged, stale or not this user's is a miss, never a crash.
final class LoadCacheTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The repository's target files and the test fixtures', found by walking their folders.
    static func targetFiles() -> [URL] {
        var files: [URL] = []
        for folder in ["targets", "Tests/Fixtures"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker where url.pathExtension == "yaml" || url.pathExtension == "yml" {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Each target file of the repository and of the fixtures, valid or not: validated again from
    /// the tree the cache keeps, it gives what loading it gives.
    func testEveryTargetFileValidatesTheSameFromItsKeptTree() throws {
        var checked = 0
        var alones = 0
        // And a file whose checks go across cases (chains, captures, paging, a redirect expected
        // while followed): a case alone must give what the whole file gives, without them.
        let across = FileManager.default.temporaryDirectory.appendingPathComponent(
            "load-cache-across-\(UUID().uuidString).yaml")
        try Data(
            """
            api: shop
            baseURL: https://shop.example
            pagination: {cursor: {from: "$.next", param: cursor}, items: "$.data"}
            cases:
              login: {method: POST, path: /login, sample: {status: 204}}
              createItem:
                method: POST
                path: /items
                task: {json: {name: widget}}
                captures: {id: "$.id"}
                examples: [{after: login}]
                sample: {json: {id: "7"}}
              deleteItem:
                method: DELETE
                values: [{id: string}]
                path: /items/{id}
                examples:
                  - {after: createItem, with: {id: "{id}"}}
                sample: {status: 204}
              moved: {path: /old, validation: [301], sample: {status: 301}}
              listed: {path: /items, sample: {json: {data: [], next: null}}}
            """.utf8
        ).write(to: across)
        defer { try? FileManager.default.removeItem(at: across) }
        for url in Self.targetFiles() + [across] {
            let bytes = try [UInt8](Data(contentsOf: url))
            var handed: [CaseSpec] = []
            let tree = TargetFileLoader.TreeWriter()
            let loaded = TargetFileLoader.load(
                bytes: bytes, file: url.lastPathComponent, directory: url.deletingLastPathComponent().path,
                limits: .default, fileRoot: nil, release: nil, eachCase: { handed.append($0) }, tree: tree)
            guard let written = tree.bytes else { continue }
            var reader = LoadCacheReader(written)
            let read = try XCTUnwrap(reader.tree(), url.path)
            var replayed: [CaseSpec] = []
            let again = TargetFileLoader.validate(
                read, file: url.lastPathComponent, directory: url.deletingLastPathComponent().path, fileRoot: nil,
                eachCase: { replayed.append($0) }, probes: nil, lines: nil)
            XCTAssertEqual(again.diagnostics, loaded.diagnostics, url.path)
            XCTAssertEqual(again.api, loaded.api, url.path)
            XCTAssertEqual(replayed, handed, url.path)
            checked += 1
            // Each case alone, as a hit of a valid file checks it: the same case and API.
            guard let api = loaded.api else { continue }
            let summary = LoadCache.Summary(
                identity: "", file: FileFingerprint(device: 0, inode: 0, size: 0, modified: 0, changed: 0),
                apiName: loaded.apiName, diagnostics: loaded.diagnostics, caseCount: loaded.caseCount,
                caseNames: handed.map(\.name), environmentVariables: api.environmentVariables, probes: [])
            for spec in handed {
                var only = LoadCacheReader(written)
                let one = try XCTUnwrap(only.tree(only: spec.name), "\(url.path) \(spec.name)")
                XCTAssertEqual(one.cases.map(\.name.text), [spec.name])
                var alone: [CaseSpec] = []
                let result = try XCTUnwrap(
                    TargetFileLoader.validateOneCase(
                        one, of: summary, file: url.lastPathComponent, directory: url.deletingLastPathComponent().path,
                        fileRoot: nil, eachCase: { alone.append($0) }, lines: nil), "\(url.path) \(spec.name)")
                XCTAssertEqual(alone, [spec], "\(url.path) \(spec.name)")
                XCTAssertEqual(result.api, api, "\(url.path) \(spec.name)")
                XCTAssertEqual(result.apiName, loaded.apiName)
                XCTAssertEqual(result.diagnostics, loaded.diagnostics)
                XCTAssertEqual(result.caseCount, loaded.caseCount)
                alones += 1
            }
        }
        XCTAssertGreaterThanOrEqual(alones, 100, "too few valid cases found to mean anything")
        XCTAssertGreaterThanOrEqual(checked, 20, "too few target files found to mean anything")
    }

    /// Scalars come back as written: quoted or plain, tagged, any text, any place.
    func testScalarsComeBackAsWritten() throws {
        let scalars = [
            Node.Scalar(text: "", isPlain: false, tag: nil, mark: Mark(line: 1, column: 1)),
            Node.Scalar(
                text: "héllo\u{0}\n🙂", isPlain: false, tag: "tag:yaml.org,2002:str", mark: Mark(line: 70_000, column: 3)
            ),
            Node.Scalar(text: "12", isPlain: true, tag: "!custom", mark: Mark(line: Int(UInt32.max), column: 200)),
            Node.Scalar(
                text: String(repeating: "x", count: 300), isPlain: true, tag: nil, mark: Mark(line: 2, column: 129))
        ]
        let node = Node.mapping(
            scalars.map { Node.Entry(key: $0, value: .sequence([.scalar($0), .mapping([], $0.mark)], $0.mark)) },
            Mark(line: 1, column: 1))
        let writer = LoadCacheWriter()
        writer.node(node)
        var reader = LoadCacheReader(writer.bytes)
        let read = try XCTUnwrap(reader.node())
        XCTAssertTrue(reader.isAtEnd)
        guard case .mapping(let entries, _) = read else { return XCTFail("not a mapping") }
        XCTAssertEqual(entries.map(\.key.text), scalars.map(\.text))
        XCTAssertEqual(entries.map(\.key.tag), scalars.map(\.tag))
        XCTAssertEqual(entries.map(\.key.isPlain), scalars.map(\.isPlain))
        XCTAssertEqual(entries.map(\.key.mark), scalars.map(\.mark))
        XCTAssertEqual(read, node)
    }

    /// A copy of the repository's `targets` folder, made once and left to settle for two seconds
    /// (a file changed in the last two gets no entry), so that these tests do not depend on when
    /// the repository was checked out.
    static let settledTargets: URL = {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "load-cache-targets-\(UUID().uuidString)")
        try? FileManager.default.copyItem(at: root.appendingPathComponent("targets"), to: copy)
        // And a file of more than 1 MiB (a long comment), which is never kept.
        try? FileManager.default.createDirectory(
            at: copy.appendingPathComponent("large"), withIntermediateDirectories: true)
        try? Data(
            ("api: big\nbaseURL: https://a.example\ncases:\n  one: {path: /one, sample: x}\n# "
                + String(repeating: "x", count: 1 << 20) + "\n").utf8
        ).write(to: copy.appendingPathComponent("large/big.yaml"))
        Thread.sleep(forTimeInterval: 2.2)
        return copy
    }()

    override class func tearDown() {
        try? FileManager.default.removeItem(at: settledTargets)
        super.tearDown()
    }

    private func cache(_ folder: TemporaryCacheFolder) throws -> LoadCache {
        try XCTUnwrap(LoadCache(folder: folder.path), "this binary has neither a build ID nor /proc/self/exe")
    }

    /// Every case of the repository's target files (settled: checked out long ago), loaded three
    /// ways: without the cache, through it the first time (a miss that writes the entry), and again
    /// (a hit, validated again from the kept tree): the same result each time. Asked for another
    /// API, a hit gives the file's name, validity, warnings and case names, and no API.
    func testAHitGivesWhatALoadGives() throws {
        let folder = try TemporaryCacheFolder()
        let cache = try cache(folder)
        var hits = 0
        for url in try FileManager.default.contentsOfDirectory(at: Self.settledTargets, includingPropertiesForKeys: nil)
        where url.pathExtension == "yaml" {
            XCTAssertNotNil(FileFingerprint.settled(url.path), url.path)
            // As `call` loads without the cache: each case handed on as it is validated.
            var streamed: [CaseSpec] = []
            let plain = TargetFileLoader.load(path: url.path, file: url.lastPathComponent) { streamed.append($0) }
            let api = try XCTUnwrap(plain.api, url.path)
            let name = try XCTUnwrap(plain.apiName)
            let key = try XCTUnwrap(cache.key(path: url.path, file: url.lastPathComponent, fileRoot: nil))
            for spec in streamed {
                let wasThere = cache.lookUp(key, path: url.path) != nil
                let (result, kept) = TargetFileLoader.load(
                    path: url.path, file: url.lastPathComponent, fileRoot: nil, keepingOnly: spec.name, ofAPI: name,
                    cache: cache)
                XCTAssertNotNil(cache.lookUp(key, path: url.path), "no entry for \(url.path)")
                if wasThere { hits += 1 }
                XCTAssertEqual(kept.spec, spec, "\(url.lastPathComponent) \(spec.name)")
                XCTAssertEqual(kept.names, streamed.map(\.name))
                XCTAssertEqual(result.api, api)
                XCTAssertEqual(result.apiName, plain.apiName)
                XCTAssertEqual(result.diagnostics, plain.diagnostics)
                XCTAssertEqual(result.caseCount, plain.caseCount)
                // A hit checks the case alone: nothing the file names changed since the entry.
                XCTAssertEqual(kept.validatedAlone, wasThere, "\(url.lastPathComponent) \(spec.name)")
            }
            // A case the file does not have, on a hit: every case validated again, none kept.
            let (same, missing) = TargetFileLoader.load(
                path: url.path, file: url.lastPathComponent, fileRoot: nil, keepingOnly: "noSuchCase", ofAPI: name,
                cache: cache)
            XCTAssertNil(missing.spec)
            XCTAssertFalse(missing.validatedAlone)
            XCTAssertEqual(missing.names, streamed.map(\.name))
            XCTAssertEqual(same.api, api)
            XCTAssertEqual(same.diagnostics, plain.diagnostics)
            let (other, unknown) = TargetFileLoader.load(
                path: url.path, file: url.lastPathComponent, fileRoot: nil, keepingOnly: "noSuchCase",
                ofAPI: "another" + name, cache: cache)
            XCTAssertNil(unknown.spec)
            XCTAssertEqual(unknown.names, streamed.map(\.name))
            XCTAssertNil(other.api)
            XCTAssertFalse(other.hasErrors)
            XCTAssertEqual(other.apiName, plain.apiName)
            XCTAssertEqual(other.diagnostics, plain.diagnostics)
            XCTAssertEqual(other.caseCount, plain.caseCount)
        }
        XCTAssertGreaterThan(hits, 20, "no entry was used")
    }

    /// A hit checks the case asked for alone only while every question the file's validation asked
    /// of the file system gets its answer still: a sample file of another case removed, made
    /// invalid JSON, led outside the folder by a link (the same file there), an example's file removed, each fails the
    /// call of an untouched case as loading the file does (exit 65), then passes again once undone.
    func testAnotherCaseFilesAreCheckedAgainOnAHit() throws {
        let folder = try TemporaryCacheFolder()
        let cache = try cache(folder)
        let base = folder.url.appendingPathComponent("api")
        let samples = base.appendingPathComponent("samples")
        let outside = folder.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: samples, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let file = base.appendingPathComponent("probed.yaml")
        try Data(
            """
            api: probed
            baseURL: https://a.example
            cases:
              plain: {path: /plain, sample: {text: ok}}
              jsonSample: {path: /json, sample: {file: samples/b.json}}
              fileSample: {path: /file, sample: {file: samples/c.bin}}
              linkedSample: {path: /linked, sample: {file: sub/e.txt}}
              upload:
                values: [{doc: file}]
                path: /up
                method: PUT
                task: {dataFile: "{doc}"}
                sample: {text: ok}
                examples: [[samples/d.txt]]
            """.utf8
        ).write(to: file)
        let good: [(String, Data)] = [
            ("b.json", Data("{\"ok\": true}".utf8)), ("c.bin", Data([0, 1])), ("d.txt", Data("d".utf8))
        ]
        let sub = base.appendingPathComponent("sub")
        func restore() throws {
            try? FileManager.default.removeItem(at: samples)
            try FileManager.default.createDirectory(at: samples, withIntermediateDirectories: true)
            for (name, data) in good { try data.write(to: samples.appendingPathComponent(name)) }
            try? FileManager.default.removeItem(at: sub)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Data("e".utf8).write(to: sub.appendingPathComponent("e.txt"))
        }
        try restore()
        let settled = Date(timeIntervalSinceNow: -10)
        try FileManager.default.setAttributes([.modificationDate: settled], ofItemAtPath: file.path)
        Thread.sleep(forTimeInterval: 2.2)  // the change time cannot be set back
        func load() -> (TargetFileLoadResult, TargetFileLoader.KeptCase) {
            TargetFileLoader.load(
                path: file.path, file: "probed.yaml", fileRoot: nil, keepingOnly: "plain", ofAPI: "probed", cache: cache
            )
        }
        let (first, _) = load()
        XCTAssertFalse(first.hasErrors, first.renderedDiagnostics())
        XCTAssertTrue(load().1.validatedAlone, "the second load is a hit that checks the case alone")
        let breakages: [(String, () throws -> Void)] = [
            (
                "a JSON sample removed",
                { try FileManager.default.removeItem(at: samples.appendingPathComponent("b.json")) }
            ),
            ("a JSON sample made invalid", { try Data("{".utf8).write(to: samples.appendingPathComponent("b.json")) }),
            (
                "a sample file removed",
                { try FileManager.default.removeItem(at: samples.appendingPathComponent("c.bin")) }
            ),
            (
                "a sample file made a folder",
                {
                    try FileManager.default.removeItem(at: samples.appendingPathComponent("c.bin"))
                    try FileManager.default.createDirectory(
                        at: samples.appendingPathComponent("c.bin"), withIntermediateDirectories: false)
                }
            ),
            (
                "an example's file removed",
                { try FileManager.default.removeItem(at: samples.appendingPathComponent("d.txt")) }
            ),
            (
                "a sample's folder a link out, the same file there",
                {
                    try FileManager.default.removeItem(at: sub)
                    try Data("e".utf8).write(to: outside.appendingPathComponent("e.txt"))
                    try FileManager.default.createSymbolicLink(at: sub, withDestinationURL: outside)
                }
            ),
            (
                "the samples folder a link out",
                {
                    try FileManager.default.removeItem(at: samples)
                    for (name, data) in good { try data.write(to: outside.appendingPathComponent(name)) }
                    try FileManager.default.createSymbolicLink(at: samples, withDestinationURL: outside)
                }
            )
        ]
        for (what, breakIt) in breakages {
            try breakIt()
            let plain = TargetFileLoader.load(path: file.path, file: "probed.yaml") { _ in }
            XCTAssertTrue(plain.hasErrors, "\(what): the file should not load")
            let (broken, kept) = load()
            XCTAssertEqual(broken.diagnostics, plain.diagnostics, what)
            XCTAssertNil(broken.api, what)
            XCTAssertFalse(kept.validatedAlone, what)
            try restore()
            let (again, keptAgain) = load()
            XCTAssertFalse(again.hasErrors, "\(what), undone: \(again.renderedDiagnostics())")
            XCTAssertEqual(keptAgain.spec?.name, "plain", what)
            XCTAssertTrue(load().1.validatedAlone, "\(what), undone: the entry holds again")
        }
    }

    /// A file of 1 MiB or more is not kept: validating it again would save little (its load parses
    /// on a thread of its own) and hold its tree.
    func testALargeFileIsNotKept() throws {
        let folder = try TemporaryCacheFolder()
        let cache = try cache(folder)
        let file = Self.settledTargets.appendingPathComponent("large/big.yaml")
        let (result, kept) = TargetFileLoader.load(
            path: file.path, file: "big.yaml", fileRoot: nil, keepingOnly: "one", ofAPI: "big", cache: cache)
        XCTAssertNotNil(result.api, result.renderedDiagnostics())
        XCTAssertEqual(kept.spec?.name, "one")
        XCTAssertNotNil(FileFingerprint.settled(file.path))
        XCTAssertEqual(FolderNames.of(folder.path), [])
    }

    /// A file changed within the last two seconds is not written (its times could still miss a
    /// change); it loads as usual.
    func testAnUnsettledFileIsNotKept() throws {
        let folder = try TemporaryCacheFolder()
        let cache = try cache(folder)
        let file = folder.url.appendingPathComponent("fresh.yaml")
        try Data("api: fresh\nbaseURL: https://a.example\ncases:\n  one:\n    path: /one\n".utf8).write(to: file)
        let (result, kept) = TargetFileLoader.load(
            path: file.path, file: "fresh.yaml", fileRoot: nil, keepingOnly: "one", ofAPI: "fresh", cache: cache)
        XCTAssertNotNil(result.api)
        XCTAssertEqual(kept.spec?.name, "one")
        XCTAssertNil(
            cache.lookUp(try XCTUnwrap(cache.key(path: file.path, file: "fresh.yaml", fileRoot: nil)), path: file.path))
        XCTAssertEqual(FolderNames.of(folder.path + "/loaded"), [])
    }

    /// Damaged entries: cut short at every length, each byte flipped, garbage. Each is either
    /// refused (a miss, and the load gives the file's own result) or decodes; none crashes.
    func testDamagedEntriesAreMissesNotCrashes() throws {
        let folder = try TemporaryCacheFolder()
        let cache = try cache(folder)
        let url = Self.settledTargets.appendingPathComponent("httpbin-token.yaml")
        let plain = TargetFileLoader.load(path: url.path, file: "httpbin-token.yaml")
        // The last case: its bytes end the entry.
        let caseName = try XCTUnwrap(plain.api?.cases.last?.name)
        let key = try XCTUnwrap(cache.key(path: url.path, file: "httpbin-token.yaml", fileRoot: nil))
        let apiName = try XCTUnwrap(plain.apiName)
        _ = TargetFileLoader.load(
            path: url.path, file: "httpbin-token.yaml", fileRoot: nil, keepingOnly: caseName, ofAPI: apiName,
            cache: cache)
        let entryPath = cache.folder + "/" + key.name
        let entry = try [UInt8](Data(contentsOf: URL(fileURLWithPath: entryPath)))
        XCTAssertGreaterThan(entry.count, 100)
        func load(with bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: entryPath))
            chmod(entryPath, 0o600)
            let hit = cache.lookUp(key, path: url.path)
            _ = hit?.tree(only: caseName)
            if let tree = hit?.tree() {
                _ = TargetFileLoader.validate(
                    tree, file: "httpbin-token.yaml", directory: url.deletingLastPathComponent().path, fileRoot: nil,
                    eachCase: nil, probes: nil, lines: nil)
            }
        }
        // Every length and byte would take minutes in a debug build; these strides still reach every
        // field of the entry.
        for length in stride(from: 0, to: entry.count, by: 7) { try load(with: Array(entry[..<length])) }
        for index in stride(from: 0, to: entry.count, by: 5) {
            var flipped = entry
            flipped[index] ^= 0xFF
            try load(with: flipped)
            flipped[index] = 0x80
            try load(with: flipped)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            try load(with: (0..<Int.random(in: 0..<4096, using: &generator)).map { _ in UInt8.random(in: 0...255) })
        }
        // Cut short in its summary, the entry is refused; in its tree, the tree is: either way the
        // file is loaded, its own result given, and the entry written again.
        var streamed: [CaseSpec] = []
        _ = TargetFileLoader.load(path: url.path, file: "httpbin-token.yaml") { streamed.append($0) }
        for damaged in [Array(entry.prefix(40)), Array(entry.dropLast(7))] {
            try load(with: damaged)
            XCTAssertNil(cache.lookUp(key, path: url.path)?.tree())
            let (result, kept) = TargetFileLoader.load(
                path: url.path, file: "httpbin-token.yaml", fileRoot: nil, keepingOnly: caseName, ofAPI: apiName,
                cache: cache)
            XCTAssertEqual(result.diagnostics, plain.diagnostics)
            XCTAssertEqual(kept.spec, streamed.last)
            XCTAssertNotNil(cache.lookUp(key, path: url.path)?.tree())
        }
    }

    /// An entry only this user could have written is believed: not one others may write, nor a link.
    func testAnEntryOthersCouldWriteIsNotBelieved() throws {
        let folder = try TemporaryCacheFolder()
        let cache = try cache(folder)
        let url = Self.settledTargets.appendingPathComponent("httpbin-token.yaml")
        let plain = TargetFileLoader.load(path: url.path)
        let caseName = try XCTUnwrap(plain.api?.cases.first?.name)
        let key = try XCTUnwrap(cache.key(path: url.path, file: "t.yaml", fileRoot: nil))
        _ = TargetFileLoader.load(
            path: url.path, file: "t.yaml", fileRoot: nil, keepingOnly: caseName, ofAPI: try XCTUnwrap(plain.apiName),
            cache: cache)
        let entryPath = cache.folder + "/" + key.name
        XCTAssertNotNil(cache.lookUp(key, path: url.path))
        var info = stat()
        XCTAssertEqual(stat(entryPath, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(stat(cache.folder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        chmod(entryPath, 0o666)
        XCTAssertNil(cache.lookUp(key, path: url.path))
        chmod(entryPath, 0o600)
        XCTAssertNotNil(cache.lookUp(key, path: url.path))
        let moved = entryPath + ".real"
        XCTAssertEqual(rename(entryPath, moved), 0)
        XCTAssertEqual(symlink(moved, entryPath), 0)
        XCTAssertNil(cache.lookUp(key, path: url.path))
    }

    /// The identity: another shown name, another `--file-root`, is another entry.
    func testTheEntryDependsOnHowTheFileIsNamed() throws {
        let folder = try TemporaryCacheFolder()
        let cache = try cache(folder)
        let path = Self.root.appendingPathComponent("targets/github.yaml").path
        let names = [
            cache.key(path: path, file: "targets/github.yaml", fileRoot: nil)?.name,
            cache.key(path: path, file: "./targets/github.yaml", fileRoot: nil)?.name,
            cache.key(path: path, file: "targets/github.yaml", fileRoot: "/tmp")?.name,
            cache.key(path: path + "x", file: "targets/github.yaml", fileRoot: nil)?.name
        ]
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(names[0], cache.key(path: path, file: "targets/github.yaml", fileRoot: nil)?.name)
    }

    func testTheCacheIsTurnedOffOrPlacedByTheEnvironment() throws {
        XCTAssertNil(LoadCache.standard(environment: ["HOME": "/h", "MOYA_NO_LOAD_CACHE": "1"]))
        XCTAssertNil(LoadCache.standard(environment: [:]))
        XCTAssertNil(LoadCache.standard(environment: ["HOME": "relative"]))
        XCTAssertEqual(LoadCache.standard(environment: ["HOME": "/h"])?.folder, "/h/.cache/moya-cli/loaded")
        XCTAssertEqual(
            LoadCache.standard(environment: ["HOME": "/h", "MOYA_NO_LOAD_CACHE": "0"])?.folder,
            "/h/.cache/moya-cli/loaded")
        XCTAssertEqual(
            LoadCache.standard(environment: ["HOME": "/h", "XDG_CACHE_HOME": "/x"])?.folder, "/x/moya-cli/loaded")
    }
}

/// A temporary folder whose `loaded` subfolder the cache uses.
final class TemporaryCacheFolder {
    let url: URL
    var path: String { url.path + "/loaded" }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("load-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

enum FolderNames {
    static func of(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
