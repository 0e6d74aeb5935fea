import TargetModel

/// A case's associated value as the generated enum declares it.
struct GeneratedValue: Sendable {
    /// What kind of Swift value it is, which decides how it becomes text, JSON or a parameter.
    indirect enum Kind: Sendable, Hashable {
        case string
        case int
        case double
        case bool
        /// A `file` value: a `URL`.
        case file
        /// A nested enum (`enum Name: String`, `: Int` or `: Double` for typed enums).
        case enumeration(typeName: String, raw: RawType)
        case list(Kind)
    }

    /// The raw type of a generated nested enum.
    enum RawType: String, Sendable, Hashable {
        case string = "String"
        case int = "Int"
        case double = "Double"
    }

    var spec: ValueSpec
    /// The label and local name (unescaped).
    var identifier: String
    var kind: Kind

    /// The Swift type, without the optional's `?`.
    var swiftType: String { Self.swiftType(of: kind) }

    static func swiftType(of kind: Kind) -> String {
        switch kind {
        case .string: "String"
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .file: "URL"
        case .enumeration(let typeName, _): typeName
        case .list(let element): "[" + swiftType(of: element) + "]"
        }
    }
}

/// A nested enum the generated file declares for an `enum` value.
struct GeneratedEnumeration: Sendable {
    var typeName: String
    var raw: GeneratedValue.RawType
    /// Each case: its identifier (unescaped) and its raw value as written in the target file.
    var cases: [(identifier: String, rawText: String)]
    /// The value it was made for (its description becomes the type's comment).
    var value: ValueSpec
}
