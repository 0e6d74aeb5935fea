import Foundation
import XCTest

/// `moya-cli` run on a pseudo-terminal that is its controlling terminal (stdin, stdout and stderr
/// on it), driven by python3's `pty` and `termios`: waits for a prompt, reads the terminal's echo
/// flag, types `typing`, and reads the echo flag again once the process has ended.
package struct PromptedRun {
    package var status: Int32
    /// What the terminal showed (CRs removed).
    package var screen: String
    /// Whether the terminal echoed input when the prompt was shown.
    package var echoWhilePrompting: Bool
    /// Whether it echoes input after the process ended.
    package var echoAfterwards: Bool

    /// The driver: it keeps the terminal's other end open, so it reads the flags itself.
    package static let driver = #"""
        import fcntl, json, os, select, subprocess, sys, termios, time
        binary, folder, home, typing = sys.argv[1:5]
        master, slave = os.openpty()
        def controlling():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        process = subprocess.Popen([binary] + sys.argv[5:], stdin=slave, stdout=slave, stderr=slave, cwd=folder,
                                   env={"PATH": "/usr/bin:/bin", "HOME": home, "TERM": "dumb"}, preexec_fn=controlling)
        screen = b""
        def pump(seconds):
            global screen
            ready, _, _ = select.select([master], [], [], seconds)
            if ready:
                screen += os.read(master, 65536)
        deadline = time.time() + 20
        while b"Password for" not in screen and process.poll() is None and time.time() < deadline:
            pump(0.05)
        echo_while = bool(termios.tcgetattr(slave)[3] & termios.ECHO)
        os.write(master, typing.encode())
        while process.poll() is None and time.time() < deadline:
            pump(0.05)
        if process.poll() is None:
            process.kill()
        pump(0.2)
        echo_after = bool(termios.tcgetattr(slave)[3] & termios.ECHO)
        print(json.dumps({"status": process.wait(), "screen": screen.decode("utf-8", "replace"),
                          "echoWhile": echo_while, "echoAfter": echo_after}))
        """#

    package init(_ arguments: [String], in sandbox: Sandbox, typing: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is not installed; it drives the pseudo-terminal of the password prompt")
        }
        let script = sandbox.root.appendingPathComponent("pty-driver.py")
        try Self.driver.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [script.path, CLIRunner.binaryURL.path, sandbox.root.path, sandbox.home.path, typing] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
        status = Int32(try XCTUnwrap(report["status"] as? Int))
        screen = try XCTUnwrap(report["screen"] as? String).replacingOccurrences(of: "\r\n", with: "\n")
        echoWhilePrompting = try XCTUnwrap(report["echoWhile"] as? Bool)
        echoAfterwards = try XCTUnwrap(report["echoAfter"] as? Bool)
    }
}
