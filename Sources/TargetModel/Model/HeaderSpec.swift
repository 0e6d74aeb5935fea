/// One header: its name and its value template.
public struct HeaderSpec: Sendable, Hashable {
    /// The header's name, as written.
    public var name: String
    /// The header's value.
    public var value: Template

    /// Creates a header.
    public init(name: String, value: Template) {
        self.name = name
        self.value = value
    }
}
