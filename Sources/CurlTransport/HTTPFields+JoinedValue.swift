import HTTPTypes

extension HTTPFields {
    /// What `self[name]` gives: the values of every field named `name`, joined with ", " ("; " for
    /// Cookie), or `nil` when there is none.
    ///
    /// Joined in a loop: HTTPTypes' subscript joins a lazy map of the values generically, and the
    /// first such join in a process looks up protocol conformances by scanning every conformance
    /// record of the static binary, some 570,000 instructions of a live call (issue 42).
    public func joinedValue(for name: HTTPField.Name) -> String? {
        let separator = name == .cookie ? "; " : ", "
        var joined: String?
        for field in self where field.name == name {
            if let earlier = joined { joined = earlier + separator + field.value } else { joined = field.value }
        }
        return joined
    }
}
