extension String {
    /// Calls `body` with the string's UTF-8 bytes in contiguous memory.
    ///
    /// Native strings (all strings the loader makes) are contiguous, small ones included, so this
    /// copies nothing; scanning the buffer costs a fraction of iterating `utf8` or
    /// `unicodeScalars` one element at a time. Checks whose answer only depends on ASCII bytes
    /// (every delimiter and name character of the format is ASCII) are written on it. Inlinable:
    /// the validator calls it for every name and path, and uninlined it ran generic.
    @inlinable @inline(__always)
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}
