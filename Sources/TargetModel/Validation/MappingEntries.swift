import PositionedYAML

/// Reading a mapping's entries in place.
///
/// These read through the array's buffer, so only the field asked for is copied, never the whole
/// entry (key, tag and value retained and then released). The validator looks at every key of
/// every mapping several times; this is its hot path.
extension Array where Element == Node.Entry {
    /// The key of entry `index`.
    @inline(__always)
    func key(at index: Int) -> Node.Scalar {
        withUnsafeBufferPointer { $0[index].key }
    }

    /// The text of the key of entry `index`.
    @inline(__always)
    func keyText(at index: Int) -> String {
        withUnsafeBufferPointer { $0[index].key.text }
    }

    /// The value of entry `index`.
    @inline(__always)
    func value(at index: Int) -> Node {
        withUnsafeBufferPointer { $0[index].value }
    }

    /// The position of the first entry whose key is `key`.
    func firstIndex(ofKey key: String) -> Int? {
        withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index].key.text.isSameKey(as: key) { return index }
            return nil
        }
    }
}

extension String {
    /// `self == key`, answered at once when the lengths differ, as they do for most pairs of
    /// keys (`==` is an out-of-line call even for two short strings).
    @inline(__always)
    func isSameKey(as key: String) -> Bool {
        utf8.count == key.utf8.count && self == key
    }

    /// Whether `keys` contains `self`; see ``isSameKey(as:)``.
    func isKey(in keys: [String]) -> Bool {
        for key in keys where isSameKey(as: key) { return true }
        return false
    }
}
