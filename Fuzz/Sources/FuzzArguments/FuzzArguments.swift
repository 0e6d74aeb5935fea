import CLibFuzzer
import MoyaKit
import TargetModel
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

/// The APIs of the shipped example files (`$FUZZ_TARGET_FILES`, default `targets`), loaded once.
private let shippedCases: [(api: APISpec, spec: CaseSpec)] = {
    let folder = getenv("FUZZ_TARGET_FILES").map { String(cString: $0) } ?? "targets"
    var cases: [(api: APISpec, spec: CaseSpec)] = []
    for name in ["github.yaml", "httpbin.yaml", "httpbin-token.yaml"] {
        guard let api = TargetFileLoader.load(path: folder + "/" + name).api else {
            fatalError("\(folder)/\(name) does not load; run from the repository root or set FUZZ_TARGET_FILES")
        }
        cases += api.cases.map { (api, $0) }
    }
    return cases
}()

/// One fuzz input: binds command-line words to a case's values, then builds the stubbed
/// request and its sample, as `moya-cli call API CASE WORDS... --stub` does.
///
/// The input is a mode byte, then NUL-separated words. An even mode byte picks one of the shipped
/// cases by the next byte; an odd one takes the first word as a whole target file and the second
/// as the name of the case to call. Words like `--name=value` are named values, others positional.
func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard bytes.count >= 2 else { return 0 }
    let isShippedCase = bytes[0] % 2 == 0
    var words = bytes.dropFirst(isShippedCase ? 2 : 1).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let api: APISpec
    let spec: CaseSpec
    if isShippedCase {
        (api, spec) = shippedCases[Int(bytes[1]) % shippedCases.count]
    } else {
        let file = Array(words.removeFirst().utf8)
        guard let loaded = TargetFileLoader.load(bytes: file, file: "fuzz.yaml", directory: "targets").api,
            let first = loaded.cases.first
        else { return 0 }
        let name = words.isEmpty ? first.name : words.removeFirst()
        api = loaded
        spec = loaded.cases.first { $0.name == name } ?? first
    }
    var positional: [String] = []
    var named: [String: String] = [:]
    for word in words {
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            named[String(word[word.index(word.startIndex, offsetBy: 2)..<equals])] = String(
                word[word.index(after: equals)...])
        } else {
            positional.append(word)
        }
    }
    let (arguments, errors) = spec.argumentBinder(fileBaseDirectory: "targets").bindReportingAll(
        positional: positional, named: named)
    for error in errors { _ = error.description }
    guard errors.isEmpty else { return 0 }
    let builder = TargetBuilder(
        api: api, processEnvironment: ["HTTPBIN_PASSWORD": "passwd", "GITHUB_TOKEN": "t"], isStubbed: true)
    for sample in [nil] + spec.samples.map(\.name) {
        guard let target = try? builder.target(for: spec, arguments: arguments, sampleName: sample) else { continue }
        _ = target.url
        _ = target.endpoint
        _ = target.sampleData
    }
    return 0
}
