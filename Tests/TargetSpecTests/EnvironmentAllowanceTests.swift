import TargetSpec
import XCTest

/// `MOYA_ALLOW_ENV`: what an untrusted file may read is exactly what the user listed. A name that
/// merely looks like an allowed one (one letter longer, shorter, another case, the prefix without
/// its `_`) stays hidden, since secrets are often named after the service they belong to.
final class EnvironmentAllowanceTests: XCTestCase {
    private func allowance(_ list: String) -> EnvironmentAllowance {
        EnvironmentAllowance(environment: ["MOYA_ALLOW_ENV": list])
    }

    func testAPrefixAllowsNamesThatStartWithAllOfIt() {
        let petStore = allowance("PET_STORE_*")
        for name in ["PET_STORE_KEY", "PET_STORE_", "PET_STORE_A_B"] {
            XCTAssertTrue(petStore.allows(name), name)
        }
        for name in [
            "PET_STOREFRONT_KEY", "PET_STORE", "PET_STOR", "PET_STOREKEY", "pet_store_key", "MY_PET_STORE_KEY",
            "PET_STORE*", "PETSTORE_KEY"
        ] {
            XCTAssertFalse(petStore.allows(name), name)
        }
        let aws = allowance("AWS_*")
        XCTAssertTrue(aws.allows("AWS_REGION"))
        for name in ["AWSSECRET", "AWS", "AWSSECRET_ACCESS_KEY", "aws_region", "XAWS_REGION"] {
            XCTAssertFalse(aws.allows(name), name)
        }
    }

    func testANameAllowsThatNameOnly() {
        let token = allowance("GITHUB_TOKEN")
        XCTAssertTrue(token.allows("GITHUB_TOKEN"))
        for name in ["GITHUB_TOKEN2", "GITHUB_TOKE", "GITHUB_TOKEN_", "github_token", "XGITHUB_TOKEN", "GITHUB_*"] {
            XCTAssertFalse(token.allows(name), name)
        }
    }

    func testTheListIsSplitOnColonsAndCommasAndSpacesAreIgnored() {
        let list = allowance(" A_TOKEN , B_*:C_KEY,,")
        for name in ["A_TOKEN", "B_1", "C_KEY"] {
            XCTAssertTrue(list.allows(name), name)
        }
        for name in ["", " A_TOKEN", "B", "C_KEY2", "A_TOKEN , B_*:C_KEY,,"] {
            XCTAssertFalse(list.allows(name), name)
        }
        XCTAssertEqual(list.names, ["A_TOKEN", "C_KEY"])
        XCTAssertEqual(list.prefixes, ["B_"])
    }

    func testNothingIsAllowedWithoutTheVariableAndALoneStarAllowsAll() {
        for empty in [EnvironmentAllowance(environment: [:]), allowance(""), allowance(":,")] {
            XCTAssertFalse(empty.allows("HOME"))
            XCTAssertFalse(empty.allows(""))
        }
        let all = allowance("*")
        XCTAssertTrue(all.allows("AWS_SECRET_ACCESS_KEY"))
        XCTAssertTrue(all.allows("x"))
    }

    func testTheViewHidesWhatIsNotAllowedUnlessTheFileIsTrusted() {
        let environment = [
            "PET_STORE_KEY": "allowed", "PET_STOREFRONT_KEY": "near", "AWSSECRET": "near", "AWS_REGION": "eu"
        ]
        let rule = allowance("PET_STORE_*:AWS_*")
        let untrusted = rule.view(of: environment, isTrusted: false)
        XCTAssertEqual(untrusted.visible, ["PET_STORE_KEY": "allowed", "AWS_REGION": "eu"])
        XCTAssertEqual(untrusted.hidden, ["PET_STOREFRONT_KEY", "AWSSECRET"])
        let trusted = rule.view(of: environment, isTrusted: true)
        XCTAssertEqual(trusted.visible, environment)
        XCTAssertEqual(trusted.hidden, [])
    }
}
