import MoyaKit
import Synchronization

/// Applies `-H 'Name: value'` overrides last, so they win over the file's headers and auth.
struct HeaderOverridePlugin: PluginType {
    var overrides: [HeaderOverride]

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        for override in overrides {
            request.setValue(override.value, forHTTPHeaderField: override.name)
        }
        return request
    }
}

/// `--curl`: prints the request as a curl command to stderr just before it is sent.
struct CurlEchoPlugin: PluginType {
    var redactor: SecretRedactor

    func willSend(_ request: any RequestType, target: any TargetType) {
        StandardStream.error.write(request.cURLDescription(redactor: redactor) + "\n")
    }
}

/// A progress bar on stderr for uploads and downloads, only on a terminal.
final class ProgressBar: Sendable {
    private struct State {
        var lastPercent = -1
        var drew = false
    }

    private let state = Mutex(State())

    func update(_ progress: TransferProgress) {
        state.withLock { state in
            let width = 30
            let line: String
            if let fraction = progress.fractionCompleted {
                let percent = Int(fraction * 100)
                guard percent != state.lastPercent else { return }
                state.lastPercent = percent
                let filled = Int(fraction * Double(width))
                line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)% "
                    + Self.byteCount(progress.completedBytes)
            } else {
                line = Self.byteCount(progress.completedBytes)
            }
            state.drew = true
            StandardStream.error.write("\r\u{1B}[2K" + line)
        }
    }

    func finish() {
        state.withLock { state in
            if state.drew { StandardStream.error.write("\r\u{1B}[2K") }
        }
    }

    static func byteCount(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(Int(value * 10) / 10) + "." + String(Int(value * 10) % 10) + " " + units[unit]
    }
}
