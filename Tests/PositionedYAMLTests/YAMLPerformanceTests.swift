import CYAML
import Foundation
import PositionedYAML
import TargetSpec
import XCTest

/// Prints load times of a large target file next to libyaml's own event pull, in one process.
/// A benchmark to run by hand, never an assertion on time:
///
///     python3 scripts/gen-large-target.py 10000 > /tmp/big.yaml
///     MOYA_YAML_BENCH_FILE=/tmp/big.yaml swift test -c release --filter YAMLPerformance
final class YAMLPerformanceTests: XCTestCase {
    func testLoadTimeAgainstLibyaml() throws {
        guard let path = ProcessInfo.processInfo.environment["MOYA_YAML_BENCH_FILE"] else {
            throw XCTSkip("set MOYA_YAML_BENCH_FILE to a target file (scripts/gen-large-target.py) to benchmark")
        }
        let bytes = try YAMLLoader.readFile(atPath: path)
        let runs = 15
        var libyamlTimes: [Double] = []
        var loaderTimes: [Double] = []
        var teardownTimes: [Double] = []
        // Interleaved, so both see the same machine load.
        for _ in 0..<runs {
            libyamlTimes.append(Self.milliseconds { XCTAssertGreaterThan(Self.pullAllEvents(bytes), 0) })
            var root: Node?
            loaderTimes.append(try Self.milliseconds { root = try YAMLLoader.load(bytes, file: path) })
            // Freeing the tree is timed apart: the CLI keeps it until it exits.
            teardownTimes.append(Self.milliseconds { root = nil })
            XCTAssertNil(root)
        }
        let libyaml = libyamlTimes.sorted()
        let loader = loaderTimes.sorted()
        print(String(format: "libyaml events: best %.2f ms, median %.2f ms", libyaml[0], libyaml[runs / 2]))
        print(String(format: "YAMLLoader.load: best %.2f ms, median %.2f ms", loader[0], loader[runs / 2]))
        print(String(format: "freeing the tree: median %.2f ms", teardownTimes.sorted()[runs / 2]))
        print(
            String(
                format: "ratio: best %.2fx, median %.2fx", loader[0] / libyaml[0], loader[runs / 2] / libyaml[runs / 2])
        )
    }

    private static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// What the C baseline (scripts/yaml-parse-baseline.c) does: every event pulled and freed.
    private static func pullAllEvents(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            // Heap-allocated: libyaml keeps a pointer to the parser inside itself.
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            yaml_parser_initialize(parser)
            defer {
                yaml_parser_delete(parser)
                parser.deallocate()
            }
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var count = 0
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(parser, &event) == 1 else { return -1 }
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                count += 1
                if done { return count }
            }
        }
    }
}
