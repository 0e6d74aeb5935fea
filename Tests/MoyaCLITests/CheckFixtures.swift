import Foundation
import TestServers
import XCTest

/// Target files and helpers shared by the `check` tests.
enum CheckFixtures {
    /// An API on the loopback server where some cases pass, some fail on status, one drifts in
    /// shape, one times out, one is unsafe and one is not covered.
    static func localTargets(port: UInt16) -> String {
        """
        api: local
        baseURL: http://127.0.0.1:\(port)
        validation: successCodes
        auth: {type: bearer, token: "${secret:CHECK_TOKEN}"}
        timeout: 10
        cases:
          slides:
            auth: none
            path: /json
            sample:
              json:
                slideshow: {author: Someone, title: Slides, slides: [{title: One, type: all}]}
          echo:
            auth: none
            values: [{name: string}, {page: {type: int, default: 1}}]
            path: /anything/{name}
            task: {parameters: {page: "{page}"}, encoding: url}
            samples:
              ok: {json: {method: GET, path: "/anything/{name}", args: [["page", "1"]], headers: [[Accept, "*/*"]]}}
              gone: {status: 410, json: {message: Gone}}
              offline: {error: connectionRefused}
            examples: [[one], {name: two, page: 2}]
          missing:
            auth: none
            path: /status/404
            sample: {json: {found: true}}
          drifting:
            auth: none
            path: /json
            sample:
              json:
                slideshow: {author: 1, slides: [{title: One, count: 3}], owner: {login: someone}}
          slow:
            auth: none
            path: /delay/3000
            timeout: 0.5
            sample: late
          create:
            auth: none
            method: POST
            path: /post
            sample: {json: {method: POST, body_size: 0}}
          uncovered:
            auth: none
            values: [{id: int}]
            path: /anything/{id}
            sample: one item
          secret:
            path: /bearer
            sample: {json: {authenticated: true, token: abc}}
        """
    }

    /// Offline failures: samples that do not hold what they declare, and a request that cannot be built.
    static let brokenSamples = """
        api: broken
        baseURL: http://127.0.0.1:1
        validation: successCodes
        cases:
          badDefault:
            path: /a
            samples:
              missing: {status: 404, json: {message: Not Found}}
              ok: {json: {a: 1}}
          errorDefault:
            path: /b
            samples:
              offline: {error: timeout}
          notJSON:
            path: /c
            sample: {text: "not json", headers: {Content-Type: application/json}}
          fine:
            path: /d
            samples:
              ok: {json: {a: 1}}
              missing: {status: 404, json: {message: Not Found}}
              offline: {error: timeout}
          unsetVariable:
            path: /e
            headers: {X-Key: "${CHECK_TEST_UNSET_VARIABLE}"}
            sample: ok
        """

    /// Many valueless cases, for shards.
    static func manyCases(_ count: Int) -> String {
        var text = "api: many\nbaseURL: http://127.0.0.1:1\ncases:\n"
        for index in 0..<count {
            text += "  case\(index):\n    path: /items/\(index)\n    sample: {json: {id: \(index)}}\n"
        }
        text +=
            "  withExamples:\n    values: [{n: int}]\n    path: /n/{n}\n    sample: x\n    examples: [[1], [2], [3], [4]]\n"
        return text
    }

    /// The JSON report at `url`, parsed.
    static func jsonReport(_ url: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: url))
        return try XCTUnwrap(object as? [String: Any])
    }

    /// The `results` of a JSON report, by id.
    static func resultsByID(_ report: [String: Any]) throws -> [String: [String: Any]] {
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        var byID: [String: [String: Any]] = [:]
        for result in results { byID[try XCTUnwrap(result["id"] as? String)] = result }
        return byID
    }

    /// The human line of `id` on stderr (the id, padded, then the outcome).
    static func line(_ id: String, in stderr: String) -> String? {
        stderr.split(separator: "\n").map(String.init).first { $0.hasPrefix(id + " ") }
    }
}
