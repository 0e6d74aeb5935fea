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
        // JSON that keeps object key order and number text: parser, writer, in-place spans.
        .target(name: "OrderedJSON"),
        // Paths as the system opens them (symbolic links followed), and whole-component containment.
        .target(name: "PathResolution"),
        // The libcurl transport MoyaKit sends over, as Moya over Alamofire; knows nothing of targets.
        .target(
            name: "CurlTransport",
            dependencies: [
                "CCurl",
                "CCleanup",
                "PathResolution",
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
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The target-file model and its validator: YAML nodes to APISpec and CaseSpec, with the
        // pagination, capture and chain declarations; no transport, no provider.
        .target(
            name: "TargetModel",
            dependencies: ["PositionedYAML", "OrderedJSON", "PathResolution"]
        ),
        // The paging engine over the model's declarations: pages, Link headers, next pages, captures run, shell-safe assignments.
        .target(
            name: "Paging",
            dependencies: ["MoyaKit", "OrderedJSON", "TargetModel"]
        ),
        // The loader and runtime: target files to the model, values bound and rendered, DynamicTarget (TargetType), discovery.
        .target(
            name: "TargetSpec",
            dependencies: ["MoyaKit", "OrderedJSON", "CurlTransport", "PathResolution", "PositionedYAML", "TargetModel"]
        ),
        // `moya-cli check`: plans, runs and reports samples, live calls, chains and pages.
        .target(
            name: "TargetCheck",
            dependencies: ["MoyaKit", "OrderedJSON", "CurlTransport", "TargetModel", "TargetSpec", "Paging"]
        ),
        // `moya-cli import openapi`: an OpenAPI description into a target file.
        .target(
            name: "OpenAPIImport",
            dependencies: ["MoyaKit", "OrderedJSON", "PositionedYAML", "TargetModel", "TargetSpec"]
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
                "TargetModel",
                "TargetSpec",
                "TargetCheck",
                "OpenAPIImport",
                "TargetAuth",
                "Paging",
                "CCleanup",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["MoyaKit", "TargetAuth"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        .testTarget(name: "PagingTests", dependencies: ["Paging", "TargetModel", "MoyaKit", "OrderedJSON"]),
        .testTarget(
            name: "CurlTransportTests",
            dependencies: ["CurlTransport", "CCurl", "TargetAuth", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .testTarget(name: "MoyaKitTests", dependencies: ["MoyaKit", "OrderedJSON", "TargetAuth", "TestSupport"]),
        .testTarget(name: "PositionedYAMLTests", dependencies: ["PositionedYAML", "TargetSpec", "CYAML"]),
        .testTarget(name: "TargetModelTests", dependencies: ["TargetModel"]),
        .testTarget(name: "TargetSpecTests", dependencies: ["TargetSpec", "TargetModel", "PositionedYAML", "MoyaKit", "OrderedJSON"]),
        .testTarget(name: "TargetCheckTests", dependencies: ["TargetCheck", "TargetModel", "TargetSpec", "MoyaKit", "OrderedJSON", "TestSupport"]),
        .testTarget(name: "OpenAPIImportTests", dependencies: ["OpenAPIImport", "PositionedYAML", "TargetModel", "TargetSpec", "MoyaKit"]),
        .testTarget(name: "TargetAuthTests", dependencies: ["TargetAuth", "TargetModel", "TargetSpec", "MoyaKit", "TestSupport"]),
        .testTarget(name: "MoyaCLITests", dependencies: ["TestSupport", "moya-cli"]),
    ],
    swiftLanguageModes: [.v6]
)
