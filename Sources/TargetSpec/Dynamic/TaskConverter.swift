import CurlTransport
import FileIO
import MoyaKit
import TargetModel
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a `TaskSpec` into the Moya `Task` it stands for.
struct TaskConverter {
    var context: RenderContext
    var method: String
    var downloadDestinationOverride: String?
    var overwritesDownloads: Bool

    func task(for spec: TaskSpec) throws(TargetBuildError) -> MoyaKit.Task {
        switch spec {
        case .plain:
            return .requestPlain
        case .data(let template):
            return .requestData(Data(try context.renderWithoutRecording(template).utf8))
        case .dataFile(let path):
            // Streamed from the file as it is sent, like an upload: a body of any size.
            return .uploadFile(URL(fileURLWithPath: try context.filePath(path)))
        case .json(let template):
            // Sent as bytes so the body keeps the file's key order (an Encodable would not).
            return .requestCompositeData(bodyData: try context.render(template).serialized(), urlParameters: [:])
        case .parameters(let members, let encoding):
            return .requestParameters(parameters: try context.render(members), encoding: Self.encoding(encoding))
        case .compositeData(.dataFile(let path), let query):
            return .uploadCompositeFile(
                URL(fileURLWithPath: try context.filePath(path)), urlParameters: try context.render(query))
        case .compositeData(let body, let query):
            return .requestCompositeData(bodyData: try bodyData(body), urlParameters: try context.render(query))
        case .compositeParameters(let body, let encoding, let query):
            return .requestCompositeParameters(
                bodyParameters: try context.render(body), bodyEncoding: Self.encoding(encoding),
                urlParameters: try context.render(query))
        case .uploadFile(let path):
            return .uploadFile(URL(fileURLWithPath: try context.filePath(path)))
        case .multipart(let parts):
            return .uploadMultipart(try sentParts(parts).map(part))
        case .compositeMultipart(let parts, let query):
            return .uploadCompositeMultipart(try sentParts(parts).map(part), urlParameters: try context.render(query))
        case .download(let destination):
            return .downloadDestination(try downloadDestination(destination))
        case .downloadParameters(let members, let encoding, let destination):
            return .downloadParameters(
                parameters: try context.render(members), encoding: Self.encoding(encoding),
                destination: try downloadDestination(destination))
        }
    }

    private func bodyData(_ body: TaskSpec.CompositeBody) throws(TargetBuildError) -> Data {
        switch body {
        case .data(let template): Data(try context.renderWithoutRecording(template).utf8)
        case .dataFile(let path): try context.contents(ofFile: try context.filePath(path))
        case .json(let template): try context.render(template).serialized()
        }
    }

    /// The parts sent: those that are a lone placeholder of an optional value not given are left out.
    private func sentParts(_ parts: [MultipartPartSpec]) -> [MultipartPartSpec] {
        parts.filter { part in
            switch part.content {
            case .value(let template), .data(let template), .file(let template): !context.leavesOut(template)
            }
        }
    }

    private func part(_ spec: MultipartPartSpec) throws(TargetBuildError) -> MultipartFormBodyPart {
        try HeaderLine.check(spec.name, field: "the name of multipart part '\(DisplayText.escaped(spec.name))'")
        try HeaderLine.check(
            spec.fileName ?? "", field: "the fileName of multipart part '\(DisplayText.escaped(spec.name))'")
        try HeaderLine.check(
            spec.mimeType ?? "", field: "the mimeType of multipart part '\(DisplayText.escaped(spec.name))'")
        switch spec.content {
        case .value(let template), .data(let template):
            return MultipartFormBodyPart(
                provider: .data(Data(try context.renderWithoutRecording(template).utf8)), name: spec.name,
                fileName: spec.fileName, mimeType: spec.mimeType)
        case .file(let template):
            let path = try context.filePath(template)
            let fileName = spec.fileName ?? String(path.split(separator: "/").last ?? Substring(path))
            return MultipartFormBodyPart(
                provider: .file(URL(fileURLWithPath: path)), name: spec.name, fileName: fileName,
                mimeType: spec.mimeType ?? MultipartPartSpec.defaultMIMEType(forPath: path))
        }
    }

    private func downloadDestination(_ template: Template) throws(TargetBuildError) -> DownloadDestination {
        // Downloads land relative to the working directory (where the user is), not the target file.
        let path: String
        if let downloadDestinationOverride {
            path = downloadDestinationOverride
        } else if overwritesDownloads {
            path = try context.downloadPath(template)
        } else {
            // The file's own destination never replaces a file: a rerun saves next to it, numbered.
            let declared = try context.downloadPath(template)
            path = OutputFile.unusedPath(for: declared) ?? declared
        }
        let url = URL(fileURLWithPath: path)
        var options: DownloadOptions = [.createIntermediateDirectories]
        if overwritesDownloads { options.insert(.removePreviousFile) }
        return DownloadDestinations.file(url, options: options)
    }

    static func encoding(_ spec: ParameterEncodingSpec) -> any ParameterEncoding {
        switch spec {
        case .url(let destination, let arrayEncoding, let boolEncoding):
            let moyaDestination: URLEncoding.Destination =
                switch destination {
                case .methodDependent: .methodDependent
                case .queryString: .queryString
                case .httpBody: .httpBody
                }
            let moyaArrays: URLEncoding.ArrayEncoding =
                switch arrayEncoding {
                case .brackets: .brackets
                case .noBrackets: .noBrackets
                case .indexInBrackets: .indexInBrackets
                case .comma: .commaSeparated
                }
            let moyaBools: URLEncoding.BoolEncoding = boolEncoding == .literal ? .literal : .numeric
            return URLEncoding(destination: moyaDestination, arrayEncoding: moyaArrays, boolEncoding: moyaBools)
        case .json(let prettyPrinted):
            return prettyPrinted ? JSONEncoding.prettyPrinted : JSONEncoding.default
        case .propertyList(let format):
            return format == .binary ? PropertyListEncoding.binary : PropertyListEncoding.xml
        }
    }
}
