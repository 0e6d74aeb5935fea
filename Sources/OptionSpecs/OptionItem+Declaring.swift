// The spellings the declarations are written in: one call per option, with the field it sets
// (named as moya-cli's code reads it) and what `--help` says of it.

extension OptionItem {
    /// A Boolean flag of a table: the field `field`, `false` unless given.
    package static func flag(
        _ field: String, _ names: String..., help: String, doc: [String]? = nil, property: String? = nil
    ) -> Self {
        let property = property ?? field
        return Self(
            option: OptionSpec(
                property: property, kind: .flag, names: names, help: help, assign: "{ $0.\(field) = true }"),
            field: PlainField(
                name: field, type: "Bool", initial: "false", doc: doc ?? [defaultDoc(names)],
                mapping: property == field ? nil : "@@\(property)"))
    }

    /// An option of a table taking one value, at most once; `type` is the field's (`String?`,
    /// `Int`); `parsedAs`: the value is read as this type and the field gets its `.value`.
    package static func option(
        _ field: String, _ names: String..., valueName: String = "", type: String, initial: String? = nil,
        help: String, doc: [String]? = nil, parsedAs: String? = nil, completion: String? = nil, sample: String
    ) -> Self {
        let assign =
            parsedAs.map { "{ (options, value: \($0)) in options.\(field) = value.value }" } ?? "{ $0.\(field) = $1 }"
        let optional = type.hasSuffix("?")
        return Self(
            option: OptionSpec(
                property: field, kind: .option, names: names, valueName: valueName, help: help,
                propertyType: optional ? (parsedAs.map { $0 + "?" } ?? type) : nil, assign: assign,
                completion: completion, sample: sample),
            field: PlainField(
                name: field, type: type, initial: initial, doc: doc ?? [defaultDoc(names)],
                mapping: parsedAs == nil ? nil : "@@\(field)?.value"))
    }

    /// An option of a table that may be given many times; each value is appended to `field`.
    package static func repeated(
        _ field: String, _ names: String..., valueName: String = "", type: String = "[String]", help: String,
        doc: [String]? = nil, completion: String? = nil, sample: String
    ) -> Self {
        Self(
            option: OptionSpec(
                property: field, kind: .repeated, names: names, valueName: valueName, help: help,
                assign: "{ $0.\(field).append($1) }", completion: completion, sample: sample),
            field: PlainField(name: field, type: type, initial: "[]", doc: doc ?? [defaultDoc(names)]))
    }

    /// The words of a table's command: what ArgumentParser leaves to its positional argument.
    /// `property`/`propertyType`/`mapping`: when ArgumentParser's property is not the field.
    package static func words(
        _ field: String, valueName: String = "", help: String, doc: [String], parsing: String? = nil,
        completion: String? = nil, property: String? = nil, propertyType: String? = nil, mapping: String? = nil
    ) -> Self {
        Self(
            option: OptionSpec(
                property: property ?? field, kind: .words, names: [], valueName: valueName, help: help,
                propertyType: propertyType, assign: "{ $0.\(field).append($1) }", completion: completion,
                parsing: parsing, entry: property == nil ? nil : field),
            field: PlainField(name: field, type: "[String]", initial: "[]", doc: doc, mapping: mapping))
    }

    /// A field no option sets by itself.
    package static func field(
        _ name: String, type: String, initial: String? = nil, doc: [String], mapping: String? = nil
    ) -> Self {
        Self(option: nil, field: PlainField(name: name, type: type, initial: initial, doc: doc, mapping: mapping))
    }

    /// An option of a command ArgumentParser alone parses (`serve`, the imports, `generate`,
    /// `auth`): the command's property `property` of `type`.
    package static func plain(
        _ kind: OptionSpec.Kind, _ property: String, _ names: String..., valueName: String = "", help: String,
        type: String, initial: String? = nil, completion: String? = nil, parsing: String? = nil
    ) -> Self {
        Self(
            option: OptionSpec(
                property: property, kind: kind, names: names, valueName: valueName, help: help, propertyType: type,
                propertyInitial: initial, completion: completion, parsing: parsing),
            field: nil)
    }

    /// "`-H`/`--header`."
    static func defaultDoc(_ names: [String]) -> String {
        "`" + names.joined(separator: "`/`") + "`."
    }
}
