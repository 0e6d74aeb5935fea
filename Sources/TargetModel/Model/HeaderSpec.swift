/// One header: its name and its value template.
package struct HeaderSpec: Sendable, Hashable {
    /// The header's name, as written.
    package var name: String
    /// The header's value.
    package var value: Template

    /// Creates a header.
    package init(name: String, value: Template) {
        self.name = name
        self.value = value
    }
}
