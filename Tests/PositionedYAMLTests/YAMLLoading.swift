import PositionedYAML
import TargetSpec
import XCTest

/// Loads `bytes` as `t.yaml`, expecting failure, and returns the diagnostics rendered against the
/// same bytes — what `moya-cli validate` would print.
func renderedLoadError(
    bytes: [UInt8], limits: YAMLLimits = .default, file: StaticString = #filePath, line: UInt = #line
) -> String {
    do {
        let node = try YAMLLoader.load(bytes, file: "t.yaml", limits: limits)
        XCTFail("expected a load error, loaded \(node)", file: file, line: line)
        return ""
    } catch {
        return DiagnosticRenderer.render(error.diagnostics, source: String(decoding: bytes, as: UTF8.self))
    }
}

/// ``renderedLoadError(bytes:limits:file:line:)`` for text.
func renderedLoadError(
    _ text: String, limits: YAMLLimits = .default, file: StaticString = #filePath, line: UInt = #line
) -> String {
    renderedLoadError(bytes: Array(text.utf8), limits: limits, file: file, line: line)
}

/// Loads `text`, failing the test with the rendered diagnostics if it does not load.
func loadNode(_ text: String, limits: YAMLLimits = .default, file: StaticString = #filePath, line: UInt = #line)
    -> Node?
{
    loadNode(bytes: Array(text.utf8), limits: limits, file: file, line: line)
}

/// Loads `bytes`, failing the test with the rendered diagnostics if they do not load.
func loadNode(bytes: [UInt8], limits: YAMLLimits = .default, file: StaticString = #filePath, line: UInt = #line)
    -> Node?
{
    do {
        return try YAMLLoader.load(bytes, file: "t.yaml", limits: limits)
    } catch {
        XCTFail(
            DiagnosticRenderer.render(error.diagnostics, source: String(decoding: bytes, as: UTF8.self)),
            file: file, line: line)
        return nil
    }
}

/// A scalar, for building expected trees.
func scalar(_ text: String, _ line: Int, _ column: Int, plain: Bool = true, tag: String? = nil) -> Node.Scalar {
    Node.Scalar(text: text, isPlain: plain, tag: tag, mark: Mark(line: line, column: column))
}

/// A mark, briefly.
func at(_ line: Int, _ column: Int) -> Mark { Mark(line: line, column: column) }

/// A mapping node from `(key, value)` pairs, in order.
func mapping(_ pairs: [(Node.Scalar, Node)], _ mark: Mark) -> Node {
    .mapping(pairs.map { Node.Entry(key: $0.0, value: $0.1) }, mark)
}
