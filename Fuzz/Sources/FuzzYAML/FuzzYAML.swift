import CLibFuzzer
import PositionedYAML
import TargetModel
import TargetSpec

/// One fuzz input: loads the input as a target file, as `moya-cli validate` does (the
/// YAML loader, then the validator, cases streamed), renders the diagnostics, and loads it again
/// with the plain YAML loader and the validator over the whole tree, which must agree; then
/// again with small limits.
func fuzzYAML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Relative paths (sample files, data files) resolve against the shipped examples.
    let result = TargetFileLoader.load(bytes: bytes, file: "fuzz.yaml", directory: "targets")
    _ = result.renderedDiagnostics()
    _ = result.renderedDiagnostics(colored: true)
    let tree: Node?
    do {
        tree = try YAMLLoader.load(bytes, file: "fuzz.yaml")
    } catch {
        tree = nil
        // What the YAML loader refuses, the target-file loader refuses too.
        precondition(result.api == nil, "YAMLLoader refused a file that TargetFileLoader accepted")
    }
    if let tree {
        var validator = TargetFileValidator(file: "fuzz.yaml", directory: "targets")
        let api = validator.validate(tree)
        // Streaming the cases is an optimisation: it must not change the outcome.
        precondition(api == result.api, "streamed and whole-tree validation give different APIs")
        precondition(
            validator.diagnostics == result.diagnostics, "streamed and whole-tree validation give different diagnostics"
        )
    }
    // Small limits, so that inputs the fuzzer can reach cross each of them; a file within them
    // is within the default ones too.
    let tight = YAMLLimits(
        maximumFileSize: 1 << 16, maximumDepth: 6, maximumScalarLength: 256,
        maximumAliasExpansion: 64, maximumAliasExpansionBytes: 512, maximumNodes: 400)
    _ = TargetFileLoader.load(bytes: bytes, file: "fuzz.yaml", directory: "targets", limits: tight)
        .renderedDiagnostics()
    if (try? YAMLLoader.load(bytes, file: "fuzz.yaml", limits: tight)) != nil {
        precondition(tree != nil, "a file within small limits is refused with the default ones")
    }
    return 0
}
