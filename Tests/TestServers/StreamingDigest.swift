import Foundation

/// A SHA-256 computed as bytes arrive, by sha256sum(1) (coreutils) reading them from a pipe: a
/// body of any size is digested in a fixed amount of memory, and at native speed in a debug build.
public final class StreamingDigest {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var isRunning = false

    public init() {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.standardInput = input
        process.standardOutput = output
        isRunning = (try? process.run()) != nil
    }

    /// Digests the next bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard isRunning, !bytes.isEmpty else { return }
        input.fileHandleForWriting.write(Data(bytes))
    }

    /// The digest, hex; nil when sha256sum could not run.
    public func finish() -> String? {
        guard isRunning else { return nil }
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: " ").first.map(String.init)
    }
}
