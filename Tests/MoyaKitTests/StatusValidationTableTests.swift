import Foundation
import MoyaKit
import XCTest

/// Issue 26, item 10: every status code from 100 to 599 goes through each `ValidationType`, in
/// `accepts(statusCode:)`, in `statusCodes` and in a stubbed provider's answer, against a table
/// written here from the definitions (2xx is 200 through 299, 3xx 300 through 399), not from the
/// code under test.
final class StatusValidationTableTests: XCTestCase {
    /// The custom list: codes at and around every class boundary.
    static let customCodes = [100, 199, 200, 299, 300, 399, 400, 499, 500, 599]

    /// Whether `type` accepts `code`, by definition.
    static func expectedAcceptance(_ type: ValidationType, _ code: Int) -> Bool {
        let hundreds = code / 100
        switch type {
        case .none: return true
        case .successCodes: return hundreds == 2
        case .successAndRedirectCodes: return hundreds == 2 || hundreds == 3
        case .customCodes(let codes): return codes.contains(code)
        }
    }

    static let types: [ValidationType] = [.none, .successCodes, .successAndRedirectCodes, .customCodes(customCodes)]

    func testEveryCodeAgainstTheTable() {
        for type in Self.types {
            var accepted: [Int] = []
            for code in 100...599 {
                XCTAssertEqual(type.accepts(statusCode: code), Self.expectedAcceptance(type, code), "\(type) \(code)")
                if Self.expectedAcceptance(type, code) { accepted.append(code) }
            }
            // `statusCodes` lists what is accepted (empty: no validation).
            XCTAssertEqual(type.statusCodes, type == .none ? [] : accepted, "\(type)")
        }
        XCTAssertTrue(ValidationType.successCodes.accepts(statusCode: 299), "2xx ends at 299")
        XCTAssertFalse(ValidationType.successCodes.accepts(statusCode: 300))
        XCTAssertTrue(ValidationType.successAndRedirectCodes.accepts(statusCode: 399))
        XCTAssertFalse(ValidationType.successAndRedirectCodes.accepts(statusCode: 199))
    }

    /// The provider applies the same rule to what it answers: a response, or `.statusCode`.
    func testEveryCodeThroughAStubbedProvider() {
        let provider = MoyaProvider<TestTarget>(
            endpointClosure: { target in
                let code = Int(target.path.dropFirst()) ?? 0
                return MoyaProvider.defaultEndpointMapping(for: target).replacingSample(
                    .networkResponse(code, Data("\(code)".utf8)))
            }, stubClosure: MoyaProvider.immediatelyStub)
        for type in Self.types {
            for code in 100...599 {
                let result = send(TestTarget(path: "/\(code)", validationType: type), with: provider)
                switch result {
                case .success(let response)?:
                    XCTAssertTrue(Self.expectedAcceptance(type, code), "\(type) passed \(code)")
                    XCTAssertEqual(response.statusCode, code)
                case .failure(.statusCode(let response))?:
                    XCTAssertFalse(Self.expectedAcceptance(type, code), "\(type) refused \(code)")
                    XCTAssertEqual(response.statusCode, code)
                    XCTAssertEqual(response.data, Data("\(code)".utf8), "the body stays with the failure")
                default:
                    XCTFail("\(type) \(code): \(String(describing: result))")
                }
            }
        }
    }
}
