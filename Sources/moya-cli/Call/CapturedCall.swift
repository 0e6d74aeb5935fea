import MoyaKit
import Paging
import TargetModel
import TargetSpec

/// `call … --capture`: the case's captures from its response, as `name='value'` lines for `eval`
/// in sh. All or nothing: a response that fails validation, a missing capture or a value no shell
/// variable can hold (a NUL) prints no line at all, so `eval` never sets half of them.
struct CapturedCall {
    var call: PreparedCall

    func run() throws {
        let api = call.api
        let spec = call.spec
        var runner = call.runner(for: call.target, override: try call.override())
        guard !spec.captures.isEmpty else {
            throw CommandFailure(
                .usage,
                "case '\(spec.name)' of API '\(api.name)' declares no captures; add 'captures: {NAME: \"$.path\"}' "
                    + "to it (see moya-targets(5))")
        }
        let response = try runner.collectedResponse(
            limit: call.invocation.requestOptions.maxBodySize.bytes,
            failedValidation: { "\(api.name).\(spec.name): HTTP \($0) failed the case's validation; nothing captured" },
            transportFailure: { $0 })
        let (captured, problems) = Capture.values(
            of: spec.captures, headers: PageWalk.fields(of: response), body: response.data)
        guard problems.isEmpty else {
            throw CommandFailure(
                .transportFailure,
                problems.map(\.description).joined(separator: "\nmoya-cli: error: ")
                    + "\nmoya-cli: error: nothing captured")
        }
        var lines = ""
        for value in captured.values {
            do {
                lines += try ShellAssignment.line(name: value.name, value: value.value) + "\n"
            } catch {
                throw CommandFailure(.transportFailure, error.description + "; nothing captured")
            }
        }
        StandardStream.output.write(lines)
    }
}
