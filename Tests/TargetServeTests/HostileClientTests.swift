import Foundation
import TargetServe
import TargetSpec
import XCTest

/// Clients that misbehave: oversized heads and bodies, malformed requests, pipelining, half-closed
/// and idle connections, a thousand connections at once. The server answers each as HTTP says,
/// and keeps answering the others.
final class HostileClientTests: XCTestCase {
    private var server: SampleServer?
    private var port: Int { server?.port ?? 0 }

    override func setUp() async throws {
        let result = TargetFileLoader.load(text: SampleServerTests.users, file: "users.yaml")
        let api = try XCTUnwrap(result.api)
        var configuration = SampleServer.Configuration()
        configuration.port = 0
        configuration.limits.idleTimeout = 2
        configuration.limits.maximumBodySize = 1024
        server = try SampleServer(
            builders: [TargetBuilder(api: api, processEnvironment: [:], isStubbed: true)], configuration: configuration,
            log: { _ in })
    }

    override func tearDown() {
        server?.stop()
        server?.waitUntilStopped()
    }

    /// A well-formed request on a new connection is still answered.
    private func assertStillServing(file: StaticString = #filePath, line: UInt = #line) throws {
        let connection = try RawConnection(port: port)
        connection.send("GET /api/v3/users/ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.body, #"{"login":"ok","id":100}"#, file: file, line: line)
    }

    func testAHeadOverTheBoundIs431AndClosed() throws {
        let connection = try RawConnection(port: port)
        connection.send(
            "GET /api/v3/users/x HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n")
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), response.head)
        XCTAssertEqual(response.body, #"{"error":"the request head is larger than 16384 bytes"}"# + "\n")
        XCTAssertEqual(connection.readToEnd().bytes, [])
        try assertStillServing()
    }

    func testABodyOverTheBoundByItsLengthIs413BeforeItIsSent() throws {
        let connection = try RawConnection(port: port)
        connection.send(
            "POST /api/v3/users HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:3000\r\n"
                + "Content-Type: application/json\r\nContent-Length: 999999999\r\n\r\n"
        )
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), response.head)
        // A page can read why (issue 41).
        XCTAssertTrue(
            response.head.contains("\r\nAccess-Control-Allow-Origin: http://localhost:3000\r\n"), response.head)
        XCTAssertEqual(response.body, #"{"error":"the body is larger than 1024 bytes"}"# + "\n")
        try assertStillServing()
    }

    func testAChunkedBodyGrowingOverTheBoundIs413() throws {
        let connection = try RawConnection(port: port)
        connection.send("POST /api/v3/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "x", count: 600)
        connection.send("258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n")
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 413"), response.head)
        try assertStillServing()
    }

    func testBodiesHeldAcrossConnectionsAreBoundedAndTheOneOverIs503() throws {
        server?.stop()
        server?.waitUntilStopped()
        let result = TargetFileLoader.load(text: SampleServerTests.users, file: "users.yaml")
        var configuration = SampleServer.Configuration()
        configuration.port = 0
        configuration.limits.maximumBodySize = 1000
        // Three bodies of 900 bytes fit; a fourth's first 800 do not, whichever comes last.
        configuration.limits.maximumHeldBodies = 2800
        server = try SampleServer(
            builders: [TargetBuilder(api: try XCTUnwrap(result.api), processEnvironment: [:], isStubbed: true)],
            configuration: configuration, log: { _ in })
        let bodies = (0..<4).map { index in
            #"{"login":"c\#(index)\#(String(repeating: " ", count: 900 - 15))"}"#
        }
        let connections = try bodies.map { body in
            let connection = try RawConnection(port: port)
            connection.send(
                "POST /api/v3/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body.prefix(800))")
            return connection
        }
        // The refused connection is the only one with an answer before its body is complete.
        var descriptors = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        XCTAssertEqual(poll(&descriptors, nfds_t(descriptors.count), 10_000), 1)
        let refused = try XCTUnwrap(descriptors.firstIndex { $0.revents & Int16(POLLIN) != 0 })
        let response = try XCTUnwrap(connections[refused].readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), response.head)
        XCTAssertTrue(response.head.contains("\r\nRetry-After: 1\r\n"), response.head)
        XCTAssertEqual(
            response.body, #"{"error":"the server holds 2800 bytes of request bodies; retry later"}"# + "\n")
        XCTAssertEqual(connections[refused].readToEnd().bytes, [], "closed")
        for (index, connection) in connections.enumerated() where index != refused {
            connection.send(String(bodies[index].dropFirst(800)))
            let answer = try XCTUnwrap(connection.readResponse())
            XCTAssertTrue(answer.head.hasPrefix("HTTP/1.1 201 Created\r\n"), answer.head)
        }
        // Answered bodies are given back: the refused client's retry is taken.
        let retry = try RawConnection(port: port)
        retry.send(
            "POST /api/v3/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(bodies[refused].utf8.count)\r\n\r\n\(bodies[refused])")
        let again = try XCTUnwrap(retry.readResponse())
        XCTAssertTrue(again.head.hasPrefix("HTTP/1.1 201 Created\r\n"), again.head)
        XCTAssertTrue(again.body.hasPrefix(#"{"login":"c\#(refused) "#), again.body)
    }

    func testAMalformedRequestIs400AndClosed() throws {
        let connection = try RawConnection(port: port)
        connection.send("GARBAGE\u{0}\u{1} / HTTP/9\r\n\r\n")
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), response.head)
        XCTAssertTrue(response.body.hasPrefix(#"{"error":"malformed request: "#), response.body)
        XCTAssertEqual(connection.readToEnd().bytes, [])
        try assertStillServing()
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let connection = try RawConnection(port: port)
        connection.send(
            (1...3).map { "GET /api/v3/users/u\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for index in 1...3 {
            XCTAssertEqual(connection.readResponse()?.body, #"{"login":"u\#(index)","id":100}"#)
        }
    }

    func testAHalfClosedClientStillGetsItsAnswer() throws {
        let connection = try RawConnection(port: port)
        connection.send("GET /api/v3/users/half HTTP/1.1\r\nHost: x\r\n\r\n")
        connection.shutdownWriting()
        XCTAssertEqual(connection.readResponse()?.body, #"{"login":"half","id":100}"#)
    }

    func testAClientStuckInItsHeadDoesNotBlockOthersAndIsClosedWhenIdle() throws {
        let stuck = try RawConnection(port: port)
        stuck.send("GET /api/v3/users/x HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        try assertStillServing()
        let (bytes, error) = stuck.readToEnd()
        XCTAssertEqual(bytes, [])
        XCTAssertNil(error, "the server closed the idle connection")
    }

    func testAThousandConnectionsAtOnceAreEachAnswered() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 2200 {
            limit.rlim_cur = min(limit.rlim_max, 4096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let connections = try (0..<1000).map { index in
            let connection = try RawConnection(port: port)
            connection.send("GET /api/v3/users/c\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            return connection
        }
        for (index, connection) in connections.enumerated() {
            XCTAssertEqual(connection.readResponse()?.body, #"{"login":"c\#(index)","id":100}"#)
        }
    }

    func testAClientThatNeverReadsDoesNotBlockOthers() throws {
        let greedy = try RawConnection(port: port, readTimeout: 2)
        let request = "GET /api/v3/users/\(String(repeating: "g", count: 1000)) HTTP/1.1\r\nHost: x\r\n\r\n"
        // Far more answers than the socket buffers hold, none of them read.
        for _ in 0..<20 {
            guard greedy.send(String(repeating: request, count: 200)) else { break }
        }
        try assertStillServing()
        try assertStillServing()
    }
    func testAHeadDrippedPastItsDeadlineIs408AndClosedThoughNeverIdle() throws {
        server?.stop()
        server?.waitUntilStopped()
        let result = TargetFileLoader.load(text: SampleServerTests.users, file: "users.yaml")
        var configuration = SampleServer.Configuration()
        configuration.port = 0
        configuration.limits.idleTimeout = 2
        configuration.limits.headDeadline = 1
        server = try SampleServer(
            builders: [TargetBuilder(api: try XCTUnwrap(result.api), processEnvironment: [:], isStubbed: true)],
            configuration: configuration, log: { _ in })
        // A first request well within the deadline, then a second head dripped a line each 0.3 s:
        // never idle for 2 s, never whole.
        let connection = try RawConnection(port: port)
        connection.send("GET /api/v3/users/first HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.body, #"{"login":"first","id":100}"#)
        connection.send("GET /api/v3/users/x HTTP/1.1\r\n")
        var dripped = 0
        while dripped < 10, connection.send("X-Drip-\(dripped): a\r\n") {
            dripped += 1
            usleep(300_000)
        }
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), response.head)
        XCTAssertEqual(response.body, #"{"error":"the request head did not arrive whole within 1 s"}"# + "\n")
        XCTAssertLessThan(dripped, 8, "cut about 1 s after the head began")
        XCTAssertEqual(connection.readToEnd().bytes, [])
        try assertStillServing()
    }

    func testConnectionsOverTheCapAre503AndClosedWhileTheOpenOnesAreServed() throws {
        server?.stop()
        server?.waitUntilStopped()
        let result = TargetFileLoader.load(text: SampleServerTests.users, file: "users.yaml")
        var configuration = SampleServer.Configuration()
        configuration.port = 0
        configuration.limits.maximumConnections = 3
        server = try SampleServer(
            builders: [TargetBuilder(api: try XCTUnwrap(result.api), processEnvironment: [:], isStubbed: true)],
            configuration: configuration, log: { _ in })
        let open = try (0..<3).map { _ in try RawConnection(port: port) }
        // Each answered once: the three are counted before the fourth arrives.
        for connection in open {
            connection.send("GET /api/v3/users/a HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(connection.readResponse()?.body, #"{"login":"a","id":100}"#)
        }
        let over = try RawConnection(port: port)
        let refused = try XCTUnwrap(over.readResponse())
        XCTAssertTrue(refused.head.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), refused.head)
        XCTAssertTrue(refused.head.contains("Retry-After: 1\r\n"), refused.head)
        XCTAssertEqual(refused.body, #"{"error":"the server has 3 connections open; retry later"}"# + "\n")
        XCTAssertEqual(over.readToEnd().bytes, [])
        for (index, connection) in open.enumerated() {
            connection.send("GET /api/v3/users/k\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(connection.readResponse()?.body, #"{"login":"k\#(index)","id":100}"#)
        }
        // A connection that ends gives its place back.
        open[2].send("GET /api/v3/users/bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = open[2].readToEnd()
        var answered: String?
        for _ in 0..<50 where answered == nil {
            let next = try RawConnection(port: port)
            next.send("GET /api/v3/users/next HTTP/1.1\r\nHost: x\r\n\r\n")
            if let response = next.readResponse(), response.head.hasPrefix("HTTP/1.1 200") {
                answered = response.body
            } else {
                usleep(20_000)
            }
        }
        XCTAssertEqual(answered, #"{"login":"next","id":100}"#)
    }

    func testAnOverflowingChunkSizeIs400AndClosed() throws {
        let connection = try RawConnection(port: port)
        connection.send("POST /api/v3/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        connection.send("FFFFFFFFFFFFFFFFFFFFFFFF\r\nx\r\n")
        let response = try XCTUnwrap(connection.readResponse())
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), response.head)
        XCTAssertTrue(response.body.hasPrefix(#"{"error":"malformed request: "#), response.body)
        XCTAssertEqual(connection.readToEnd().bytes, [])
        try assertStillServing()
    }
}
