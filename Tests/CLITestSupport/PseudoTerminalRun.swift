import Foundation
import XCTest

/// `moya-cli` run with its streams on a pseudo-terminal (its controlling terminal), driven step by
/// step by python3's `pty`: wait until the screen shows a pattern, then open a URL (a test
/// server's gate), resize the window, and so on. The run is ordered by what the terminal shows,
/// not by time; every wait gives up after 20 s, and the test then fails on what it did not see.
package struct PseudoTerminalRun {
    /// One thing the driver does, in order.
    package enum Step {
        /// Waits until the screen, from the last `mark` on, matches `pattern` (a Python regular
        /// expression over the raw bytes, escapes included).
        case waitFor(String)
        /// Sends a GET to `url` and reads the answer.
        case open(URL)
        /// Sets the window to `columns` columns (the process gets SIGWINCH).
        case resize(columns: Int)
        /// Remembers where the screen is now (`marks`).
        case mark
        /// Sends SIGINT, as Ctrl-C does.
        case interrupt

        package var json: [String: Any] {
            switch self {
            case .waitFor(let pattern): ["wait": pattern]
            case .open(let url): ["open": url.absoluteString]
            case .resize(let columns): ["resize": columns]
            case .mark: ["mark": true]
            case .interrupt: ["interrupt": true]
            }
        }
    }

    /// Where stdout goes: the terminal, a file, or nowhere (closed).
    package enum Output {
        case terminal
        case file(URL)
        case closed
    }

    package var status: Int32
    /// Every byte the terminal got, escapes included (CRs kept: the bar redraws with them).
    package var screen: Data
    /// The screen's length at each `mark`.
    package var marks: [Int]
    /// Whether every `waitFor` saw its pattern.
    package var sawEverything: Bool

    /// The screen as text (invalid UTF-8 replaced).
    package var text: String { String(decoding: screen, as: UTF8.self) }

    package static let driver = #"""
        import base64, fcntl, json, os, re, select, signal, struct, subprocess, sys, termios, time, urllib.request
        config = json.loads(sys.argv[1])
        master, slave = os.openpty()
        def window(columns):
            fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        window(config["columns"])
        stdout = slave
        if config["stdout"] not in ("terminal", "closed"):
            stdout = open(config["stdout"], "wb")
        def controlling():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            if config["stdout"] == "closed":
                os.close(1)
        process = subprocess.Popen(config["arguments"], stdin=slave, stdout=stdout, stderr=slave,
                                   cwd=config["folder"], env=config["environment"], preexec_fn=controlling)
        screen = b""
        def pump(seconds):
            global screen
            ready, _, _ = select.select([master], [], [], seconds)
            if ready:
                try:
                    screen += os.read(master, 65536)
                except OSError:
                    time.sleep(seconds)
        marks, saw, start = [], True, 0
        for step in config["steps"]:
            if "wait" in step:
                pattern = re.compile(step["wait"].encode(), re.S)
                deadline = time.time() + 20
                while not pattern.search(screen, start) and time.time() < deadline:
                    pump(0.02)
                saw = saw and bool(pattern.search(screen, start))
            elif "open" in step:
                urllib.request.urlopen(step["open"], timeout=20).read()
            elif "resize" in step:
                window(step["resize"])
            elif "interrupt" in step:
                os.kill(process.pid, signal.SIGINT)
            elif "mark" in step:
                start = len(screen)
                marks.append(start)
        deadline = time.time() + 30
        while process.poll() is None and time.time() < deadline:
            pump(0.02)
        if process.poll() is None:
            process.kill()
        pump(0.2)
        print(json.dumps({"status": process.wait(), "screen": base64.b64encode(screen).decode(), "marks": marks,
                          "saw": saw}))
        """#

    /// Runs `moya-cli arguments` in `folder` (HOME there too) on a terminal `columns` wide.
    package init(
        _ arguments: [String], in folder: URL, steps: [Step] = [], stdout: Output = .terminal,
        columns: Int = 100, environment: [String: String] = [:]
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is not installed; it drives the pseudo-terminal")
        }
        let stdoutName: String
        switch stdout {
        case .terminal: stdoutName = "terminal"
        case .closed: stdoutName = "closed"
        case .file(let url): stdoutName = url.path
        }
        let config: [String: Any] = [
            "arguments": [CLIRunner.binaryURL.path] + arguments, "folder": folder.path, "columns": columns,
            "stdout": stdoutName, "steps": steps.map(\.json),
            "environment": ["PATH": "/usr/bin:/bin", "HOME": folder.path, "TERM": "xterm"].merging(environment) {
                _, given in given
            }
        ]
        let configText = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.driver, configText]
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
        screen = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(report["screen"] as? String)))
        marks = try XCTUnwrap(report["marks"] as? [Int])
        sawEverything = try XCTUnwrap(report["saw"] as? Bool)
    }

    /// The screen without the progress line's redraws and clears: what else was shown. (On a
    /// machine so loaded that a short transfer takes a second, a line may come and go.)
    package var textWithoutProgress: String {
        text.replacingOccurrences(of: "\r[^\r\n]*\u{1B}\\[K", with: "", options: .regularExpression)
    }

    /// The progress lines drawn (each redraw: what follows a CR up to its erase-to-end-of-line),
    /// from byte `offset` of the screen on.
    package func progressLines(from offset: Int = 0) -> [String] {
        let tail = String(decoding: screen.dropFirst(offset), as: UTF8.self)
        return tail.components(separatedBy: "\r").compactMap { piece in
            guard let end = piece.range(of: "\u{1B}[K") else { return nil }
            let line = String(piece[..<end.lowerBound])
            return line.isEmpty ? nil : line
        }
    }
}
