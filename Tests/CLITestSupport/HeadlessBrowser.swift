import Foundation
import XCTest

/// Debian's `chromium-headless-shell`, which `make test` installs, run as a page's reader: the DOM
/// after its scripts ran (`--dump-dom`) and a screenshot. Tests that need a real browser (the HTML
/// report, the mock's CORS) use it; without the browser they skip, saying what to install.
package enum HeadlessBrowser {
    /// The browser's executable, or an `XCTSkip` naming the package.
    package static func executable() throws -> URL {
        for path in ["/usr/bin/chromium-headless-shell", "/usr/lib/chromium/headless_shell", "/usr/bin/chromium"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        throw XCTSkip(
            "chromium-headless-shell is not installed (apt-get install chromium-headless-shell; make test installs it)")
    }

    /// The document as the browser holds it once the page's scripts ran and `virtualTimeBudget`
    /// milliseconds of (virtual) time passed, so that fetches the page starts have answered.
    package static func dumpDOM(_ url: URL, virtualTimeBudget: Int = 5000, extraArguments: [String] = []) throws
        -> String
    {
        let output = try run(
            ["--dump-dom", "--virtual-time-budget=\(virtualTimeBudget)"] + extraArguments + [url.absoluteString])
        return String(decoding: output, as: UTF8.self)
    }

    /// A PNG screenshot of the page at `width`x`height`, written to `destination`; its size in bytes.
    @discardableResult
    package static func screenshot(_ url: URL, to destination: URL, width: Int = 1280, height: Int = 900) throws -> Int
    {
        _ = try run(["--screenshot=\(destination.path)", "--window-size=\(width),\(height)", url.absoluteString])
        let size = (try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
        return size
    }

    /// Runs the browser with a fresh profile in a temporary folder (never the user's), no sandbox
    /// (tests may run as root), no first-run work; at most 60 s.
    private static func run(_ arguments: [String]) throws -> Data {
        let browser = try executable()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("moya-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = browser
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(profile.path)"
            ] + arguments
        process.environment = ["HOME": profile.path, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + 60)
        timer.setEventHandler { if process.isRunning { process.terminate() } }
        timer.resume()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        return data
    }
}
