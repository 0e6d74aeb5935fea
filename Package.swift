// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "moya-cli",
    products: [
        .executable(name: "moya-cli", targets: ["moya-cli"]),
        .library(name: "MoyaKit", targets: ["MoyaKit"]),
        .library(name: "TargetSpec", targets: ["TargetSpec"]),
        .library(name: "TargetCheck", targets: ["TargetCheck"]),
        .library(name: "OpenAPIImport", targets: ["OpenAPIImport"]),
        .library(name: "TargetAuth", targets: ["TargetAuth"]),
        .library(name: "Paging", targets: ["Paging"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
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
        // YAML over libyaml: a node tree with source positions, load limits, diagnostics, source lines.
        .target(
            name: "PositionedYAML",
            dependencies: ["CYAML"]
        ),
        // Signal handlers and the clean-up of temporary files they do: async-signal-safe, so C.
        .target(name: "CCleanup"),
        // Escaping and quoting for shells, JSON strings, XML, TAP, YAML and the terminal (a leaf).
        .target(name: "TextSafety"),
        // JSON that keeps object key order and number text: parser, writer, in-place spans.
        .target(name: "OrderedJSON", dependencies: ["TextSafety"]),
        // The libcurl transport MoyaKit sends over, as Moya over Alamofire; knows nothing of targets.
        .target(
            name: "CurlTransport",
            dependencies: [
                "CCurl",
                "CCleanup",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // Moya's model (TargetType, Task, Endpoint, MoyaProvider, plugins) over the transport.
        .target(
            name: "MoyaKit",
            dependencies: [
                "OrderedJSON",
                "CurlTransport",
                "TextSafety",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Pagination and captures: JSON paths, Link headers, next pages, shell-safe assignments.
        .target(
            name: "Paging",
            dependencies: ["MoyaKit", "OrderedJSON", "TextSafety"]
        ),
        .target(
            name: "TargetSpec",
            dependencies: ["MoyaKit", "OrderedJSON", "CurlTransport", "PositionedYAML", "Paging", "TextSafety"]
        ),
        .target(
            name: "TargetCheck",
            dependencies: ["MoyaKit", "OrderedJSON", "CurlTransport", "TargetSpec", "Paging", "TextSafety"]
        ),
        // `moya-cli import openapi`: an OpenAPI description into a target file.
        .target(
            name: "OpenAPIImport",
            dependencies: ["MoyaKit", "OrderedJSON", "PositionedYAML", "TargetSpec", "TextSafety"]
        ),
        // Tokens for `oauth2` and `command` auth: the token endpoint client, the on-disk cache,
        // the token command runner, and the provider `TargetBuilder` asks.
        .target(
            name: "TargetAuth",
            dependencies: ["MoyaKit", "OrderedJSON", "CurlTransport", "TargetSpec", "CCleanup"]
        ),
        .executableTarget(
            name: "moya-cli",
            dependencies: [
                "MoyaKit",
                "OrderedJSON",
                "CurlTransport",
                "PositionedYAML",
                "TargetSpec",
                "TargetCheck",
                "OpenAPIImport",
                "TargetAuth",
                "Paging",
                "TextSafety",
                "CCleanup",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libFuzzer harnesses over what reads untrusted input (`make fuzz`, scripts/fuzz.sh, builds
        // them with -sanitize=fuzzer into Fuzz/.build); in ordinary builds each replays the files named.
        .target(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"),
        .executableTarget(name: "FuzzJSON", dependencies: ["CLibFuzzer", "OrderedJSON"], path: "Fuzz/Sources/FuzzJSON"),
        .executableTarget(
            name: "FuzzYAML",
            dependencies: ["CLibFuzzer", "PositionedYAML", "TargetSpec"],
            path: "Fuzz/Sources/FuzzYAML"
        ),
        .executableTarget(
            name: "FuzzArguments",
            dependencies: ["CLibFuzzer", "MoyaKit", "TargetSpec"],
            path: "Fuzz/Sources/FuzzArguments"
        ),
        .target(
            name: "TestSupport",
            dependencies: ["MoyaKit", "CurlTransport"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "TextSafetyTests", dependencies: ["TextSafety"]),
        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        .testTarget(name: "PagingTests", dependencies: ["Paging", "MoyaKit", "OrderedJSON"]),
        .testTarget(
            name: "CurlTransportTests",
            dependencies: ["CurlTransport", "CCurl", "MoyaKit", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .testTarget(name: "MoyaKitTests", dependencies: ["MoyaKit", "OrderedJSON", "TestSupport"]),
        .testTarget(name: "PositionedYAMLTests", dependencies: ["PositionedYAML", "TargetSpec", "CYAML"]),
        .testTarget(name: "TargetSpecTests", dependencies: ["TargetSpec", "PositionedYAML", "MoyaKit", "OrderedJSON", "Paging"]),
        .testTarget(name: "TargetCheckTests", dependencies: ["TargetCheck", "TargetSpec", "MoyaKit", "OrderedJSON", "TextSafety", "TestSupport"]),
        .testTarget(name: "OpenAPIImportTests", dependencies: ["OpenAPIImport", "PositionedYAML", "TargetSpec", "MoyaKit", "TextSafety"]),
        .testTarget(name: "TargetAuthTests", dependencies: ["TargetAuth", "TargetSpec", "MoyaKit", "TestSupport"]),
        .testTarget(name: "MoyaCLITests", dependencies: ["TestSupport", "moya-cli", "TextSafety"]),
    ],
    swiftLanguageModes: [.v6]
)
