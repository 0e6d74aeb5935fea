// swift-tools-version:6.1
import PackageDescription

// Layers, lowest first; a module imports only modules above it in this file (README's Layout), and
// every target names each module its sources import, not only one that brings it along:
// `make imports-check` (scripts/check-imports.py) fails otherwise, and `make test` builds with
// `--explicit-target-dependency-import-check error`.
//   leaves        CCurl, CYAML, CCleanup, CBuildID (C); TextSafety, PathResolution, OrderedJSON, ContentDigest,
//                 FileIO (files read and written, for modules that send nothing as for those that do),
//                 PositionedYAML (on FileIO, which reads its files), Assertions (RFC 9535 JSONPath and the
//                 predicates of `expect:`, on OrderedJSON: the model reads expectations with it, check
//                 and call evaluate them, and it needs nothing of targets)
//   transport     CurlTransport
//   Moya          MoyaKit
//   model         TargetModel
//   runtime       TargetSpec; Paging beside it; ResponseCache (the HTTP cache) beside them; Sending over all
//   engines       TargetCheck, OpenAPIImport, RequestImport, SwiftImport (on swift-syntax), TargetAuth,
//                 SwiftGeneration, TargetServe
//   the CLI       moya-cli, and moya-cli-import-swift (the helper `import swift` runs, so that moya-cli
//                 never links swift-syntax: it stands on SwiftImport alone, and moya-cli on neither)
//   build tools   OptionSpecs (every option's declaration) and generate-options (`make options`)
//   tests         TestServers and CLITestSupport (support targets), one test target per module
// Every file written into a target folder passes TargetSpec's TargetFileGate (places, secrets, sample
// files, header); what the engines write (YAMLText, NewCase, SampleBody) is in TargetModel, the name
// table and secret spellings in TextSafety, so the import engines stand on neither TargetSpec nor MoyaKit.
// Products: the command and MoyaKit (Moya's API). Package access in TextSafety, PathResolution, FileIO,
// Paging, Sending and the engines; public in MoyaKit and the leaves its API is built on (OrderedJSON, CurlTransport),
// and, for speed alone, in TargetModel, TargetSpec and PositionedYAML: Swift 6.3 neither folds a key
// path (the model's `spec.name`) nor inlines a small function across modules when the declaration
// is `package`, which made `list` of 10,000 cases 14% slower and a stubbed call 12% (budgets
// "list API (10,000 cases)" and "call --stub (github zen)").
let package = Package(
    name: "moya-cli",
    products: [
        .executable(name: "moya-cli", targets: ["moya-cli"]),
        .executable(name: "moya-cli-import-swift", targets: ["moya-cli-import-swift"]),
        .library(name: "MoyaKit", targets: ["MoyaKit"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Only the `moya-cli-import-swift` helper links it; moya-cli runs that helper (start-up stays lean).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1")
    ],
    targets: [
        // libcurl is loaded with dlopen on first use (see CCurl/shim.h), so a stubbed
        // call never pays the ~7 ms of loading it and its 30-odd libraries. That is why
        // this target names no pkgConfig: SwiftPM would add pkg-config's `-lcurl` to the
        // link line. The headers come from the system include path (Debian's
        // libcurl4-openssl-dev); `make deps` checks them with `pkg-config libcurl`.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // Signal handlers and the clean-up of temporary files they do: async-signal-safe, so C.
        .target(name: "CCleanup"),
        // The program's GNU build ID, read from its loaded headers: the load cache's name for this binary.
        .target(name: "CBuildID"),

        // Leaves.
        // Every escaping and quoting: shell words, JSON strings, XML, TAP, YAML scalars, percent-encoding,
        // terminal display; the credential-name table and the spellings of a secret.
        .target(name: "TextSafety"),
        // Paths as the system opens them (symbolic links followed), and whole-component containment.
        .target(name: "PathResolution"),
        // JSON that keeps object key order and number text: parser, writer, in-place spans.
        .target(name: "OrderedJSON", dependencies: ["TextSafety"]),
        // Files read to the end and written whole or not at all (`InputFile`, `OutputFile`), for
        // every module that reads or writes one, whether or not it sends a request.
        .target(name: "FileIO", dependencies: ["CCleanup", "PathResolution"]),
        // YAML over libyaml: a node tree with source positions, load limits, diagnostics, source lines,
        // and a YAML file read within its size limit (FileIO), for the loader and the OpenAPI import.
        .target(name: "PositionedYAML", dependencies: ["CYAML", "FileIO"]),
        // `expect:`'s engine: JSONPath queries as RFC 9535 defines them (filters, functions, slices,
        // descendants), the predicates, and an expectation tested against a response's facts.
        .target(name: "Assertions", dependencies: ["OrderedJSON"]),
        // SHA-256 of a file's bytes, for trust granted by content (`moya-cli trust`), the cache's and the
        // token cache's file names and the test server's body fingerprints; HMAC-SHA-256 for SigV4
        // signing; no crypto library, and the one SHA-256 of the package.
        .target(name: "ContentDigest"),

        // The libcurl transport MoyaKit sends over, as Moya over Alamofire; knows nothing of targets.
        .target(
            name: "CurlTransport",
            dependencies: [
                "CCurl",
                "CCleanup",
                "FileIO",
                "TextSafety",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // Moya's model (TargetType, Task, Endpoint, MoyaProvider, plugins) and Alamofire's interceptors
        // (RetryPolicy, AuthenticationInterceptor: the CLI's retries and token renewal) over the transport.
        .target(
            name: "MoyaKit",
            dependencies: [
                "TextSafety",
                "OrderedJSON",
                "FileIO",
                "CurlTransport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // The target-file model and its validator: YAML nodes to APISpec and CaseSpec, with the
        // pagination, capture and chain declarations and argument binding; no transport, no provider.
        // Also target-file YAML being written (YAMLText, NewCase, SampleBody), which the engines share.
        .target(
            name: "TargetModel",
            dependencies: ["TextSafety", "PathResolution", "OrderedJSON", "PositionedYAML", "Assertions"]
        ),
        // The loader and runtime: target files to the model, values rendered, DynamicTarget (a
        // TargetType), where files are found and which are trusted.
        .target(
            name: "TargetSpec",
            dependencies: [
                "TextSafety", "PathResolution", "OrderedJSON", "PositionedYAML", "FileIO", "CurlTransport", "MoyaKit",
                "TargetModel", "CYAML", "CCleanup", "CBuildID", "ContentDigest",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // The paging engine over the model's declarations: pages, Link headers, next pages, captures.
        .target(
            name: "Paging",
            dependencies: ["TextSafety", "OrderedJSON", "MoyaKit", "TargetModel"]
        ),
        // The HTTP cache's engine (RFC 9111 as a private cache): what may be stored, freshness and
        // age, 304s, and the private store in the user's cache folder (FileIO's PrivateFile); over
        // MoyaKit for HTTP dates (RetryAfter); the sender's ResponseCachePlugin is its one client.
        .target(
            name: "ResponseCache",
            dependencies: [
                "FileIO", "ContentDigest", "OrderedJSON", "MoyaKit",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // One sender for every request (`call`, `request`, `check`, `serve`'s and `auth`'s builders): the
        // TargetBuilder made once with the untrusted-file environment rule, the page-N target, retries
        // with Retry-After, the token renewed once after a 401, redaction; `call` and `check` its clients.
        // Per request (RequestPreparationPlugin): `{$uuid}`-style values, the `prepare` program (run by
        // TargetAuth's runner, handed in), SigV4 signing (HMAC from ContentDigest).
        .target(
            name: "Sending",
            dependencies: [
                "CCleanup", "TextSafety", "FileIO", "ContentDigest", "OrderedJSON", "CurlTransport", "MoyaKit",
                "TargetModel",
                "TargetSpec", "ResponseCache", .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // `moya-cli check`: plans, runs and reports samples, live calls, chains and pages.
        .target(
            name: "TargetCheck",
            dependencies: [
                "TextSafety", "OrderedJSON", "CurlTransport", "MoyaKit", "TargetModel", "TargetSpec", "Paging",
                "Sending", "Assertions"
            ]
        ),
        // `moya-cli import openapi`: an OpenAPI description into a target file.
        .target(
            name: "OpenAPIImport",
            dependencies: [
                "TextSafety", "PathResolution", "OrderedJSON", "PositionedYAML", "TargetModel"
            ]
        ),
        // `moya-cli import curl`: curl command lines (a browser's "Copy as cURL") into cases.
        .target(
            name: "RequestImport",
            dependencies: ["TextSafety", "PathResolution", "OrderedJSON", "PositionedYAML", "TargetModel"]
        ),
        // `moya-cli import swift`: Swift sources' `TargetType` types (read with swift-syntax) into a target
        // file's YAML and notes; only the helper below links it.
        .target(
            name: "SwiftImport",
            dependencies: [
                "TextSafety", "OrderedJSON", "TargetModel",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax")
            ]
        ),
        // `moya-cli generate swift`: an API as a Moya `TargetType` enum in Swift.
        .target(name: "SwiftGeneration", dependencies: ["TextSafety", "OrderedJSON", "TargetModel"]),
        // Tokens for `oauth2` and `command` auth: the token endpoint client, the on-disk cache,
        // the token command runner, and the provider `TargetBuilder` asks.
        .target(
            name: "TargetAuth",
            dependencies: [
                "CCleanup", "FileIO", "OrderedJSON", "ContentDigest", "CurlTransport", "MoyaKit", "TargetSpec"
            ]
        ),
        // `moya-cli serve`: an HTTP/1.1 server on SwiftNIO answering the cases of target files from their samples.
        .target(
            name: "TargetServe",
            dependencies: [
                "TextSafety", "OrderedJSON", "PathResolution", "MoyaKit", "TargetModel", "TargetSpec",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio")
            ]
        ),
        // The command: one folder per subcommand; options, output, exit statuses.
        .executableTarget(
            name: "moya-cli",
            dependencies: [
                "CCleanup",
                "TextSafety",
                "PathResolution",
                "OrderedJSON",
                "PositionedYAML",
                "FileIO",
                "CurlTransport",
                "MoyaKit",
                "TargetModel",
                "TargetSpec",
                "Paging",
                "ResponseCache",
                "Sending",
                "TargetCheck",
                "Assertions",
                "OpenAPIImport",
                "RequestImport",
                "TargetAuth",
                "SwiftGeneration",
                "TargetServe",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        // The helper `moya-cli import swift` runs (found beside moya-cli): Swift sources in, one JSON
        // object (the target file's YAML, notes) out; moya-cli validates it and writes through the gate.
        .executableTarget(name: "moya-cli-import-swift", dependencies: ["OrderedJSON", "SwiftImport"]),

        // Build tools, outside the layers (moya-cli imports neither). Every option of every command
        // is declared once in OptionSpecs/Declarations; `make options` runs generate-options, which
        // writes moya-cli's plain option values, the tables `DirectParser` reads and the
        // ArgumentParser declarations (the `+Generated.swift` files); OptionSpecsTests fails while
        // one is stale. No dependency, so building them costs seconds.
        .target(name: "OptionSpecs"),
        .executableTarget(name: "generate-options", dependencies: ["OptionSpecs"]),

        // libFuzzer harnesses over what reads untrusted input (`make fuzz`, scripts/fuzz.sh, builds
        // them with -sanitize=fuzzer into Fuzz/.build); in ordinary builds each replays the files named.
        .target(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"),
        .executableTarget(name: "FuzzJSON", dependencies: ["CLibFuzzer", "OrderedJSON"], path: "Fuzz/Sources/FuzzJSON"),
        .executableTarget(
            name: "FuzzYAML",
            dependencies: ["CLibFuzzer", "PositionedYAML", "TargetModel", "TargetSpec"],
            path: "Fuzz/Sources/FuzzYAML"
        ),
        .executableTarget(
            name: "FuzzArguments",
            dependencies: ["CLibFuzzer", "MoyaKit", "TargetModel", "TargetSpec"],
            path: "Fuzz/Sources/FuzzArguments"
        ),

        // Tests: the in-process loopback HTTP server and fixtures they share, then one target per module.
        .target(
            name: "TestServers",
            dependencies: ["CurlTransport", "MoyaKit", "ContentDigest"],
            path: "Tests/TestServers"
        ),
        // What the command's tests share: running the built binary (in a sandbox, on a terminal,
        // at a password prompt, as `serve`), the shells for completion, the fixtures' target files.
        .target(name: "CLITestSupport", path: "Tests/CLITestSupport"),
        .testTarget(name: "TextSafetyTests", dependencies: ["TextSafety"]),
        .testTarget(name: "FileIOTests", dependencies: ["FileIO"]),
        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        .testTarget(name: "ContentDigestTests", dependencies: ["ContentDigest"]),
        .testTarget(name: "AssertionsTests", dependencies: ["Assertions", "OrderedJSON"]),
        .testTarget(name: "PositionedYAMLTests", dependencies: ["PositionedYAML", "TargetSpec", "CYAML"]),
        .testTarget(
            name: "CurlTransportTests",
            dependencies: [
                "CurlTransport", "CCurl", "FileIO", "MoyaKit", "ContentDigest", "TestServers",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "MoyaKitTests",
            dependencies: [
                "MoyaKit", "OrderedJSON", "ContentDigest", "TestServers",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]),
        .testTarget(
            name: "TargetModelTests", dependencies: ["TargetModel", "PositionedYAML", "OrderedJSON", "Assertions"]),
        .testTarget(
            name: "TargetSpecTests",
            dependencies: ["TargetSpec", "TargetModel", "PositionedYAML", "MoyaKit", "OrderedJSON"]),
        .testTarget(name: "PagingTests", dependencies: ["Paging", "TargetModel", "MoyaKit", "OrderedJSON"]),
        .testTarget(
            name: "ResponseCacheTests",
            dependencies: ["ResponseCache", .product(name: "HTTPTypes", package: "swift-http-types")]),
        .testTarget(
            name: "SendingTests",
            dependencies: [
                "Sending", "TargetSpec", "TargetModel", "MoyaKit", "CurlTransport", "ContentDigest",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "TargetCheckTests",
            dependencies: [
                "TargetCheck", "TargetSpec", "TargetModel", "MoyaKit", "OrderedJSON", "TextSafety", "TestServers"
            ]
        ),
        .testTarget(
            name: "OpenAPIImportTests",
            dependencies: ["OpenAPIImport", "PositionedYAML", "TargetModel", "TargetSpec", "MoyaKit", "TextSafety"]),
        .testTarget(
            name: "RequestImportTests", dependencies: ["RequestImport", "TargetSpec", "TargetModel", "TextSafety"]),
        .testTarget(
            name: "TargetAuthTests", dependencies: ["TargetAuth", "TargetSpec", "TargetModel", "MoyaKit", "TestServers"]
        ),
        .testTarget(name: "SwiftGenerationTests", dependencies: ["SwiftGeneration"]),
        .testTarget(name: "SwiftImportTests", dependencies: ["SwiftImport"]),
        .testTarget(
            name: "MoyaCLITests",
            dependencies: [
                "TextSafety", "MoyaKit", "TargetModel", "TargetSpec", "TestServers", "CLITestSupport", "moya-cli",
                "Sending", "OrderedJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .testTarget(name: "OptionSpecsTests", dependencies: ["OptionSpecs"]),
        // `moya-cli generate swift`'s output for the shipped target files and the fixtures, committed
        // (`make generated-swift` writes it), compiled against MoyaKit and sent beside `moya-cli call`.
        .testTarget(name: "GeneratedSwiftTests", dependencies: ["MoyaKit", "TestServers", "moya-cli"]),
        // The `--module Moya` output, compiled against MoyaKit under Moya's name (Tests/MoyaModule);
        // httpbin's uses Alamofire for property lists, so it is read, not compiled.
        .target(name: "Moya", dependencies: ["MoyaKit"], path: "Tests/MoyaModule"),
        .testTarget(
            name: "GeneratedMoyaTests", dependencies: ["Moya", "SwiftGeneration", "moya-cli"],
            exclude: ["Generated/Httpbin.swift"]),
        .testTarget(
            name: "TargetServeTests",
            dependencies: [
                "TargetServe", "TargetSpec", "TargetModel", "MoyaKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
