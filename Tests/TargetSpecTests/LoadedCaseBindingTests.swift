import TargetModel
import TargetSpec
import XCTest

/// A loaded case's values bound and rendered into its path and headers (the binder is
/// TargetModel's, tested in TargetModelTests; rendering is the runtime's).
final class LoadedCaseBindingTests: XCTestCase {
    func testBinderFromALoadedCase() throws {
        let yaml = SpecTest.file(
            case:
                "values: [{id: int}, {verbose: {type: bool, default: true}}]\npath: /items/{id}\nheaders: {X-Verbose: \"{verbose}\"}\nsample: ok"
        )
        let spec = try XCTUnwrap(SpecTest.load(yaml).api?.cases.first)
        let arguments = try spec.argumentBinder().bind(positional: ["42"])
        XCTAssertEqual(try spec.path.render(arguments: arguments, escaping: .pathSegment), "/items/42")
        XCTAssertEqual(try spec.headers[0].value.render(arguments: arguments), "true")
    }
}
