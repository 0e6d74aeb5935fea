import XCTest

@testable import TextSafety

/// The one credential-name table, both ways: what names a secret, and what must not.
final class CredentialNamesTests: XCTestCase {
    func testCredentialNamesAreSecrets() {
        for name in [
            "key", "api_key", "apiKey", "X-API-Key", "X-Shop-Key", "token", "access_token", "refresh_token", "password",
            "passwd", "client_secret", "clientSecret", "Authorization", "X-Auth-User", "oauth", "jwt", "sessionid",
            "X-Session-Id", "Cookie", "X-XSRF-TOKEN", "privateKey", "signature", "X-CSRFToken", "PHPSESSID",
            "JSESSIONID", "accesstoken", "aws_secret_access_key", "sessionToken", "validationToken", "passwordHash",
            "Authorization-Code", "auth_code"
        ] {
            XCTAssertTrue(CredentialNames.looksSecret(name), name)
        }
    }

    func testOrdinaryNamesAreNot() {
        for name in [
            "author", "authors", "authority", ":authority", "keyword", "keywords", "monkey", "hockey", "key_id",
            "userId",
            "page", "name", "Content-Type", "authorization_id", "return_authn_schemes", "setup_token_id", "token_type",
            "expires_in", "tokenizer", "sessions"
        ] {
            XCTAssertFalse(CredentialNames.looksSecret(name), name)
        }
    }

    func testEverySpellingOfASecretIsMatched() {
        let matcher = SecretMatcher(secrets: ["rt3/Tok+en=="])
        let placeholder = Array(SecretMatcher.placeholder.utf8)
        for text in ["rt3/Tok+en==", "rt3%2FTok%2Ben%3D%3D", "rt3%2fTok%2ben%3d%3d", #"rt3\/Tok+en=="#] {
            XCTAssertEqual(matcher.replacingMatches(in: "a=\(text)&b", with: placeholder), "a=<redacted>&b", text)
        }
    }
}
