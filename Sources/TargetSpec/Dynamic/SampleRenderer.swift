import MoyaKit
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Renders a sample: its body, status and headers, or the network error it stands for.
struct SampleRenderer {
    var context: RenderContext

    func render(_ sample: SampleSpec) throws(TargetBuildError) -> RenderedSample {
        switch sample.outcome {
        case .networkError(let kind):
            return .networkError(Self.error(for: kind))
        case .response(let status, let headerSpecs, let bodySpec):
            var headers: [(name: String, value: String)] = []
            for header in headerSpecs where !context.leavesOut(header.value) {
                headers.append((header.name, try context.renderWithoutRecording(header.value)))
            }
            let body: Data
            switch bodySpec {
            case .empty:
                body = Data()
            case .text(let template):
                // From the bytes, not `Data(_: some Sequence)`, whose dynamic cast of the UTF-8 view
                // scans the binary's conformance records (~210,000 instructions a stubbed call).
                var text = try context.renderWithoutRecording(template)
                body = text.withUTF8 { Data(buffer: $0) }
            case .json(let template):
                // A literal sample is held as the text rendering would give.
                if case .literal(let json) = template {
                    body = Data(json.bytes)
                } else {
                    body = try context.render(template).serialized()
                }
                if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                    headers.append(("Content-Type", "application/json"))
                }
            case .file(let path):
                body = try context.contents(ofFile: try context.filePath(path))
            }
            return .response(status: status, headers: headers, body: body)
        }
    }

    /// The transport error a live request would have failed with, with curl-like messages.
    static func error(for kind: SampleErrorKind) -> TransportError {
        switch kind {
        case .timeout: TransportError(kind: .timedOut, message: "Operation timed out (sample error)")
        case .cannotResolveHost:
            TransportError(kind: .cannotResolveHost, message: "Could not resolve host (sample error)")
        case .cannotConnect: TransportError(kind: .cannotConnect, message: "Connection refused (sample error)")
        case .connectionReset: TransportError(kind: .connectionLost, message: "Connection reset by peer (sample error)")
        case .tls: TransportError(kind: .secureConnectionFailed, message: "TLS handshake failed (sample error)")
        case .tooManyRedirects:
            TransportError(kind: .tooManyRedirects, message: "Maximum redirects followed (sample error)")
        }
    }
}
