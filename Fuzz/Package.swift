// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for moya-cli's input parsers; `make fuzz` builds and runs them (see
// scripts/fuzz.sh). A package of its own, so the main package's builds never see the fuzzer flags:
// every Swift module here, the main package's included, is built with `-sanitize=fuzzer,address`.
let package = Package(
    name: "moya-cli-fuzz",
    dependencies: [
        .package(name: "moya-cli", path: ".."),
    ],
    targets: [
        // Each harness hands its test function to libFuzzer's driver from its own entry point.
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "FuzzYAML",
            dependencies: ["CLibFuzzer", .product(name: "TargetSpec", package: "moya-cli")]
        ),
        .executableTarget(
            name: "FuzzArguments",
            dependencies: [
                "CLibFuzzer",
                .product(name: "TargetSpec", package: "moya-cli"),
                .product(name: "MoyaKit", package: "moya-cli"),
            ]
        ),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["CLibFuzzer", .product(name: "MoyaKit", package: "moya-cli")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
