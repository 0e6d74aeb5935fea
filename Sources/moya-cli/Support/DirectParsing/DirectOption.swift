import ArgumentParser

/// A command or option group whose options `DirectParser` can parse without ArgumentParser.
///
/// The table must list every option of the type; `DirectParserTests` compares it with what
/// ArgumentParser declares and checks that both parse alike.
protocol DirectlyParsable: ParsableArguments {
    /// Every option, flag and argument of the type, in declaration order; groups first put a fresh
    /// group value in place, then list the group's own options.
    static var directOptions: [DirectOption<Self>] { get }
}

/// One option of a command, as `DirectParser` sees it: its spellings, what it takes, and how to
/// reset and set it on a value of the command.
///
/// A command value made with `init()` holds no values yet (reading one traps), so every property
/// is first reset to its default, exactly as ArgumentParser declares it. Tables live in the file
/// that declares the options, whose wrappers' storage (`_name`) is private to it.
struct DirectOption<Root> {
    typealias Kind = DirectOptionKind

    /// The spellings, e.g. `["-H", "--header"]`.
    let names: [String]
    let kind: Kind
    /// Puts the default value in place.
    let reset: (inout Root) -> Void
    /// Sets the value from `text` (appends, for repeated options and words); `false` when `text`
    /// is not a valid value.
    let assign: (inout Root, String) -> Bool
    /// Whether two values of the command hold the same value for this option.
    let agrees: (Root, Root) -> Bool
    /// Runs the group's `validate()`, as ArgumentParser does after parsing.
    let validate: (Root) throws -> Void

    /// A flag that is `false` unless given.
    static func flag<Wrapper: ArgumentWrapper>(_ names: String..., at path: WritableKeyPath<Root, Wrapper>) -> Self
    where Wrapper.Value == Bool {
        Self(names: names, kind: .flag, reset: { store(false, at: path, in: &$0) },
             assign: { root, _ in store(true, at: path, in: &root); return true },
             agrees: { $0[keyPath: path].wrappedValue == $1[keyPath: path].wrappedValue }, validate: { _ in })
    }

    /// An option without a default: `nil` unless given.
    static func option<Wrapper: ArgumentWrapper, Value: ExpressibleByArgument & Equatable>(
        _ names: String..., at path: WritableKeyPath<Root, Wrapper>
    ) -> Self where Wrapper.Value == Value? {
        Self(names: names, kind: .value, reset: { store(nil, at: path, in: &$0) },
             assign: { root, text in
                 guard let value = Value(argument: text) else { return false }
                 store(value, at: path, in: &root)
                 return true
             },
             agrees: { $0[keyPath: path].wrappedValue == $1[keyPath: path].wrappedValue }, validate: { _ in })
    }

    /// An option with a default value.
    static func option<Wrapper: ArgumentWrapper>(
        _ names: String..., at path: WritableKeyPath<Root, Wrapper>, default initial: Wrapper.Value
    ) -> Self where Wrapper.Value: ExpressibleByArgument & Equatable {
        Self(names: names, kind: .value, reset: { store(initial, at: path, in: &$0) },
             assign: { root, text in
                 guard let value = Wrapper.Value(argument: text) else { return false }
                 store(value, at: path, in: &root)
                 return true
             },
             agrees: { $0[keyPath: path].wrappedValue == $1[keyPath: path].wrappedValue }, validate: { _ in })
    }

    /// An option that may be given many times, empty unless given.
    static func repeated<Wrapper: ArgumentWrapper, Value: ExpressibleByArgument & Equatable>(
        _ names: String..., at path: WritableKeyPath<Root, Wrapper>
    ) -> Self where Wrapper.Value == [Value] {
        Self(names: names, kind: .repeated, reset: { store([], at: path, in: &$0) },
             assign: { root, text in
                 guard let value = Value(argument: text) else { return false }
                 store(root[keyPath: path].wrappedValue + [value], at: path, in: &root)
                 return true
             },
             agrees: { $0[keyPath: path].wrappedValue == $1[keyPath: path].wrappedValue }, validate: { _ in })
    }

    /// The words ArgumentParser leaves to the command (`@Argument(parsing: .allUnrecognized)`).
    static func words<Wrapper: ArgumentWrapper>(at path: WritableKeyPath<Root, Wrapper>) -> Self where Wrapper.Value == [String] {
        Self(names: [], kind: .words, reset: { store([], at: path, in: &$0) },
             assign: { root, text in store(root[keyPath: path].wrappedValue + [text], at: path, in: &root); return true },
             agrees: { $0[keyPath: path].wrappedValue == $1[keyPath: path].wrappedValue }, validate: { _ in })
    }

    /// An `@OptionGroup`: a fresh group value, then the group's options.
    static func group<Group: DirectlyParsable>(_ path: WritableKeyPath<Root, OptionGroup<Group>>) -> [Self] {
        let holder = Self(names: [], kind: .group, reset: { store(Group(), at: path, in: &$0) },
                          assign: { _, _ in false }, agrees: { _, _ in true },
                          validate: { root in
                              var group = root[keyPath: path].wrappedValue
                              try group.validate()
                          })
        return [holder] + Group.directOptions.map { $0.lifted(to: path) }
    }

    /// This option of a group, seen from the command that holds the group at `path`.
    func lifted<Outer>(to path: WritableKeyPath<Outer, OptionGroup<Root>>) -> DirectOption<Outer> {
        let (reset, assign, agrees, validate) = (self.reset, self.assign, self.agrees, self.validate)
        return DirectOption<Outer>(
            names: names, kind: kind,
            reset: { outer in
                var group = outer[keyPath: path].wrappedValue
                reset(&group)
                store(group, at: path, in: &outer)
            },
            assign: { outer, text in
                var group = outer[keyPath: path].wrappedValue
                guard assign(&group, text) else { return false }
                store(group, at: path, in: &outer)
                return true
            },
            agrees: { agrees($0[keyPath: path].wrappedValue, $1[keyPath: path].wrappedValue) },
            validate: { try validate($0[keyPath: path].wrappedValue) })
    }
}

/// ArgumentParser's property wrappers. A command made with `init()` holds wrappers without values,
/// whose `wrappedValue` traps when read, and a key path to the wrapped property reads before it
/// writes; so the tables name the wrappers' storage (`\._timeout`) and values are set through it.
protocol ArgumentWrapper {
    associatedtype Value
    var wrappedValue: Value { get set }
}

extension Flag: ArgumentWrapper {}
extension Option: ArgumentWrapper {}
extension Argument: ArgumentWrapper {}
extension OptionGroup: ArgumentWrapper {}

/// Sets `value` in the wrapper stored at `path`, without reading the value it held.
private func store<Root, Wrapper: ArgumentWrapper>(_ value: Wrapper.Value, at path: WritableKeyPath<Root, Wrapper>, in root: inout Root) {
    var wrapper = root[keyPath: path]
    wrapper.wrappedValue = value
    root[keyPath: path] = wrapper
}

/// What an option takes, for `DirectParser`.
enum DirectOptionKind {
    /// A Boolean flag, `false` unless given.
    case flag
    /// An option taking one value, at most once.
    case value
    /// An option taking one value each time it is given (`-H a -H b`).
    case repeated
    /// The words ArgumentParser leaves over (`.allUnrecognized`): the API, the case, its values.
    case words
    /// An option group: no spelling of its own.
    case group
}
