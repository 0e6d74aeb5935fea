// `moya-cli-import-swift`: the helper `moya-cli import swift` runs, so that moya-cli never links
// swift-syntax. Arguments: `[--api NAME] [--samples DIR] [--header LINE] FILE...` (files only:
// moya-cli lists folders). Prints one JSON object on standard output: `{"apis": [{"name",
// "type", "text", "cases", "sampleFiles": [{"path", "source"}], "variables"}], "notes": [{"place",
// "case", "message"}]}`, exit 0; or `{"error": {"place", "message"}}`, exit 65; 64 for bad arguments.

import OrderedJSON
import SwiftImport

#if canImport(Glibc)
import Glibc
#endif

func fail(_ status: Int32, _ place: String?, _ message: String) -> Never {
    var error: [(String, JSONValue)] = [("message", .string(message))]
    if let place { error.insert(("place", .string(place)), at: 0) }
    print(JSONValue.object([("error", .object(error))]).description)
    exit(status)
}

var options = SwiftImportOptions()
var header: [String] = []
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--api": options.apiName = arguments.popFirst()
    case "--samples": options.samplesFolder = arguments.popFirst()
    case "--header": header.append(arguments.popFirst() ?? "")
    case "--":
        paths += arguments
        arguments = []
    default: paths.append(argument)
    }
}
guard !paths.isEmpty else { fail(64, nil, "no Swift file given") }

var files: [(name: String, bytes: [UInt8])] = []
for path in paths {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { fail(66, path, "cannot read \(path): \(String(cString: strerror(errno)))") }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count < 0 { fail(66, path, "cannot read \(path): \(String(cString: strerror(errno)))") }
        if count == 0 { break }
        bytes += buffer[0..<count]
        if bytes.count > SwiftImporter.maximumFileSize {
            fail(
                65, path,
                "larger than \(SwiftImporter.maximumFileSize >> 20) MiB, the most a Swift source read")
        }
    }
    close(descriptor)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    files.append((path, bytes))
}

let result: SwiftImportResult
do throws(SwiftImportError) {
    result = try SwiftImporter.importSources(files, options: options, header: header)
} catch {
    fail(65, error.place, error.message)
}
let apis = result.apis.map { api -> JSONValue in
    .object([
        ("name", .string(api.name)), ("type", .string(api.typeName)), ("text", .string(api.text)),
        ("cases", .int(api.caseCount)),
        (
            "sampleFiles",
            .array(api.sampleFiles.map { .object([("path", .string($0.path)), ("source", .string($0.source))]) })
        ),
        ("variables", .array(api.variables.map { .string($0) })),
        ("files", .array(api.folderFiles.map { .string($0) }))
    ])
}
let notes = result.notes.map { note -> JSONValue in
    .object([
        ("place", .string(note.place)), ("case", note.caseName.map { .string($0) } ?? .null),
        ("message", .string(note.message))
    ])
}
print(JSONValue.object([("apis", .array(apis)), ("notes", .array(notes))]).description)
