/// A value kept behind one reference and copied only when written while shared: what makes a
/// large struct cheap to copy and to keep in arrays (`CaseSpec`, `APISpec`, `DynamicTarget`).
///
/// Public and `@inlinable` so that the `@inlinable` key-path accessors of those types, read in
/// other modules, compile to a field load in release builds instead of a call per field.
public struct CopyOnWriteBox<Value>: @unchecked Sendable {
    // Written only while uniquely referenced (see `value`'s `_modify`), so sharing it is safe
    // whenever `Value` is Sendable, as every user's is.
    @usableFromInline
    final class Storage {
        @usableFromInline var value: Value

        @inlinable
        init(_ value: Value) {
            self.value = value
        }
    }

    @usableFromInline var storage: Storage

    @inlinable
    public init(_ value: Value) {
        storage = Storage(value)
    }

    /// Read in place (a field is read without copying the others), written in place once unique.
    @inlinable
    public var value: Value {
        _read { yield storage.value }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
            yield &storage.value
        }
    }

    /// Whether two boxes are one (then their values are equal without comparing them).
    @inlinable
    public func isIdentical(to other: CopyOnWriteBox) -> Bool {
        storage === other.storage
    }
}
