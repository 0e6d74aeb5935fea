import Foundation
import XCTest

/// One test's world: a working folder (the current directory of every run) with an empty HOME
/// inside it, so neither the developer's target files nor another test's can be discovered.
package final class Sandbox {
    private let folder: TemporaryFolder

    /// The working folder; `./targets` is `targets` inside it.
    package var root: URL { folder.url }
    /// The HOME the binary sees (`~/.config/moya/targets` lives under it).
    package let home: URL

    package init() throws {
        folder = try TemporaryFolder()
        home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` (relative to the working folder) and returns its URL.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> URL {
        try folder.write(name, text)
    }

    /// Writes raw bytes to `name` (relative to the working folder) and returns its URL.
    @discardableResult
    package func write(_ name: String, bytes: [UInt8]) throws -> URL {
        let file = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file
    }

    /// The absolute path of `name` inside the working folder.
    package func path(_ name: String) -> String {
        root.appendingPathComponent(name).path
    }

    /// Runs `moya-cli arguments...` (or `binary`) in the working folder with this sandbox's HOME.
    package func run(
        _ arguments: [String], environment: [String: String] = [:], binary: URL? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> CLIResult {
        var variables = ["HOME": home.path]
        variables.merge(environment) { _, new in new }
        return try CLIRunner.run(
            arguments, environment: variables, currentDirectory: root, binary: binary, file: file, line: line)
    }
}

/// Asserts a whole run: exit status, stdout and stderr, each exactly.
package func assertRun(
    _ result: CLIResult, status: Int32, stdout: String, stderr: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(result.status, status, "exit status; stderr was:\n\(result.stderr)", file: file, line: line)
    XCTAssertEqual(result.stdout, stdout, "stdout", file: file, line: line)
    XCTAssertEqual(result.stderr, stderr, "stderr", file: file, line: line)
}

/// Small target files the tests share; each is valid unless its name says otherwise.
package enum Fixture {
    /// A shop API: an explicit name, a description, environments and three cases of different kinds.
    package static let shop = """
        api: shop
        description: A small shop
        baseURL: https://api.shop.example
        environments:
          production: {baseURL: https://api.shop.example}
          local: {baseURL: "http://127.0.0.1:${SHOP_PORT:-8080}"}
        cases:
          products:
            description: List products
            values:
              - category: {enum: [all, books, games], default: all, description: "Which shelf"}
              - page: {type: int, default: 1}
              - inStock: {type: bool, default: false}
            path: /products
            task: {parameters: {category: "{category}", page: "{page}", inStock: "{inStock}"}}
            samples:
              ok: {json: []}
              offline: {error: timeout}
            examples:
              - []
              - {category: books, page: 2}
          product:
            description: One product
            values:
              - id: int
            path: /products/{id}
            sample: {json: {id: "{id}"}}
          order:
            values:
              - sku: string
              - ratio: {type: double, default: 0.5}
            path: /orders
            method: POST
            task: {json: {sku: "{sku}", ratio: "{ratio}"}}
            sample: {status: 201}

        """

    /// An API named after its file, without a description.
    package static let weather = """
        baseURL: https://weather.example
        cases:
          today: {path: /today, sample: sunny}

        """

    /// Two errors: a misspelt key, hence a missing path.
    package static let broken = """
        baseURL: https://broken.example
        cases:
          ping:
            pth: /ping
            sample: ""

        """

    /// What `broken` at `file` renders on stderr.
    package static func brokenDiagnostics(_ file: String) -> String {
        """
        \(file):3:3: error: missing required key 'path' in case 'ping'; add one starting with '/'
              ping:
              ^
        \(file):4:5: error: unknown key 'pth' in case 'ping'; did you mean 'path'?
                pth: /ping
                ^

        """
    }

    /// A one-case API named `name`, with `baseURL` telling copies apart.
    package static func api(_ name: String, baseURL: String = "https://a.example", description: String? = nil) -> String
    {
        """
        api: \(name)
        \(description.map { "description: \($0)" } ?? "")
        baseURL: \(baseURL)
        cases:
          ping: {path: /ping, sample: pong}

        """
    }
}
