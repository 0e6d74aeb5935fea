#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A download that can be resumed (`--continue`): its bytes go to `DESTINATION.part` as they
/// arrive, and the validator of the answer they came from (its strong `ETag`, else its
/// `Last-Modified`) to `DESTINATION.part.validator`, a one-line sidecar file, so that a failed or
/// interrupted transfer leaves both behind and the next run asks for the rest with `Range` and
/// `If-Range`. `commit()` moves the `.part` into place and removes the sidecar.
///
/// Unlike `OutputFile`'s temporary file, the `.part` is not removed on a failure or a signal:
/// keeping it is the point. It is only ever a regular file (never followed through a link), and
/// the destination a regular file or nothing, outside the protected folders.
package final class PartialFile: @unchecked Sendable {
    /// Where the whole file goes.
    package let destination: String
    /// Where its bytes gather: `destination` and `.part`.
    package let partPath: String
    /// The sidecar holding the validator of the bytes in the `.part`.
    package let validatorPath: String
    private let overwrite: Bool
    private var descriptor: Int32 = -1

    /// Prepares to resume `destination`. `overwrite`: whether an existing file there may be
    /// replaced once the download is whole.
    /// - Throws: `.destinationExists` when a file is there and may not be replaced,
    ///   `.destinationProtected` in a protected folder, `.cannotWriteOutput` for anything but a
    ///   regular file at the destination or the `.part`.
    package init(destination: String, overwrite: Bool) throws(FileError) {
        self.destination = destination
        self.overwrite = overwrite
        partPath = destination + ".part"
        validatorPath = destination + ".part.validator"
        var status = stat()
        if lstat(destination, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw OutputFile.failure(destination, "--continue writes a regular file, and this is not one")
            }
            guard overwrite else {
                throw FileError(
                    kind: .destinationExists, message: "\(destination) already exists; there is nothing to continue")
            }
        }
        for path in [destination, partPath, validatorPath] {
            if let (folder, reason) = OutputFile.protectedFolder(holding: path) {
                throw FileError(
                    kind: .destinationProtected, message: "not writing \(path): it would land in \(folder), \(reason)")
            }
        }
        for path in [partPath, validatorPath] where lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG {
            throw OutputFile.failure(path, "it is not a regular file")
        }
    }

    deinit {
        close()
    }

    /// How many bytes the `.part` holds: where the next request starts.
    package var resumeOffset: Int64 {
        var status = stat()
        guard lstat(partPath, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
        return Int64(status.st_size)
    }

    /// The validator saved with the `.part`, if it holds bytes and the sidecar a usable one.
    package var validator: String? {
        guard resumeOffset > 0 else { return nil }
        let descriptor = open(validatorPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: Self.validatorLimit + 2)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        var text = String(decoding: buffer[..<count], as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return Self.usableValidator(text)
    }

    /// The longest validator kept.
    static let validatorLimit = 512

    /// `value` if it can be sent as `If-Range`: a strong entity tag (`"…"`; a weak one may not be
    /// used) or a date, of visible ASCII and spaces only, so nothing a server sent or a file holds
    /// can break a header line.
    package static func usableValidator(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= validatorLimit, bytes.allSatisfy({ (0x20...0x7E).contains($0) }),
            bytes.first != 0x20, bytes.last != 0x20, !value.hasPrefix("W/")
        else { return nil }
        return value
    }

    /// Opens the `.part` for the body of an answer: appended to at `offset` (a 206 that starts
    /// where it ends), or emptied when `offset` is nil (a whole body: start over). `validator` is
    /// the answer's, saved beside it (none: the sidecar goes).
    package func begin(appendingAt offset: Int64?, validator: String?) throws(FileError) {
        close()
        if let offset, offset != resumeOffset {
            throw OutputFile.failure(partPath, "it holds \(resumeOffset) bytes, not \(offset)")
        }
        makeFolders(OutputFile.folder(of: partPath))
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | (offset == nil ? O_TRUNC : O_APPEND)
        let opened = open(partPath, flags, 0o666)
        guard opened >= 0 else { throw OutputFile.failure(partPath, OutputFile.describe(errno)) }
        descriptor = opened
        if offset == nil || validator != nil { try saveValidator(validator.flatMap(Self.usableValidator)) }
    }

    /// Makes the missing folders of `folder` (a download case's `out/{name}.bin`); kept with the
    /// `.part` they hold.
    private func makeFolders(_ folder: String) {
        var missing: [String] = []
        var current = folder
        while !current.isEmpty, current != "/", current != ".", access(current, F_OK) != 0 {
            missing.append(current)
            current = OutputFile.folder(of: current)
        }
        for folder in missing.reversed() { mkdir(folder, 0o777) }
    }

    private func saveValidator(_ validator: String?) throws(FileError) {
        guard let validator else {
            unlink(validatorPath)
            return
        }
        let file = open(validatorPath, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o666)
        guard file >= 0 else { throw OutputFile.failure(validatorPath, OutputFile.describe(errno)) }
        defer { Glibc.close(file) }
        try FileError.withBytes(of: Array((validator + "\n").utf8)) { (bytes) throws(FileError) in
            try OutputFile.writeAll(bytes, to: file, name: validatorPath)
        }
    }

    /// Appends `bytes` to the `.part`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard descriptor >= 0 else { throw OutputFile.failure(partPath, "it is not open") }
        try OutputFile.writeAll(bytes, to: descriptor, name: partPath)
    }

    /// Closes the `.part`, keeping it and its validator for the next run.
    package func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Removes the `.part` and its validator (bytes that cannot be resumed).
    package func discard() {
        close()
        unlink(partPath)
        unlink(validatorPath)
    }

    /// Moves the whole `.part` into place (replacing the destination only when allowed) and
    /// removes the validator.
    package func commit() throws(FileError) {
        close()
        if overwrite {
            guard rename(partPath, destination) == 0 else {
                throw OutputFile.failure(
                    destination, "cannot move \(partPath) into place: \(OutputFile.describe(errno))")
            }
        } else {
            guard link(partPath, destination) == 0 else {
                if errno == EEXIST {
                    throw FileError(
                        kind: .destinationExists, message: "\(destination) already exists; not overwriting it")
                }
                throw OutputFile.failure(
                    destination, "cannot move \(partPath) into place: \(OutputFile.describe(errno))")
            }
            unlink(partPath)
        }
        unlink(validatorPath)
    }
}
