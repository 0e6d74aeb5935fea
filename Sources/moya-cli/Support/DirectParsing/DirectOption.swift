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

    /// Where an option's wrapper is stored in `Root`: a closure that lends it out `inout`, as in
    /// `{ $1(&$0._timeout) }`. (Key paths read like less, but making some forty of them costs about
    /// 0.4 ms a run, a third of what this parser is there to save.)
    typealias Access<Wrapper> = (inout Root, (inout Wrapper) -> Void) -> Void

    /// A flag that is `false` unless given.
    static func flag<Wrapper: ArgumentWrapper>(_ names: String..., at access: @escaping Access<Wrapper>) -> Self
    where Wrapper.Value == Bool {
        Self(names: names, kind: .flag, reset: { store(false, with: access, in: &$0) },
             assign: { root, _ in store(true, with: access, in: &root); return true },
             agrees: { same($0, $1, with: access) }, validate: { _ in })
    }

    /// An option without a default: `nil` unless given.
    static func option<Wrapper: ArgumentWrapper, Value: ExpressibleByArgument & Equatable>(
        _ names: String..., at access: @escaping Access<Wrapper>
    ) -> Self where Wrapper.Value == Value? {
        Self(names: names, kind: .value, reset: { store(nil, with: access, in: &$0) },
             assign: { root, text in
                 guard let value = Value(argument: text) else { return false }
                 store(value, with: access, in: &root)
                 return true
             },
             agrees: { same($0, $1, with: access) }, validate: { _ in })
    }

    /// An option with a default value.
    static func option<Wrapper: ArgumentWrapper>(
        _ names: String..., default initial: Wrapper.Value, at access: @escaping Access<Wrapper>
    ) -> Self where Wrapper.Value: ExpressibleByArgument & Equatable {
        Self(names: names, kind: .value, reset: { store(initial, with: access, in: &$0) },
             assign: { root, text in
                 guard let value = Wrapper.Value(argument: text) else { return false }
                 store(value, with: access, in: &root)
                 return true
             },
             agrees: { same($0, $1, with: access) }, validate: { _ in })
    }

    /// An option that may be given many times, empty unless given.
    static func repeated<Wrapper: ArgumentWrapper, Value: ExpressibleByArgument & Equatable>(
        _ names: String..., at access: @escaping Access<Wrapper>
    ) -> Self where Wrapper.Value == [Value] {
        Self(names: names, kind: .repeated, reset: { store([], with: access, in: &$0) },
             assign: { root, text in
                 guard let value = Value(argument: text) else { return false }
                 access(&root) { $0.wrappedValue.append(value) }
                 return true
             },
             agrees: { same($0, $1, with: access) }, validate: { _ in })
    }

    /// The words ArgumentParser leaves to the command (`@Argument(parsing: .allUnrecognized)`).
    static func words<Wrapper: ArgumentWrapper>(at access: @escaping Access<Wrapper>) -> Self where Wrapper.Value == [String] {
        Self(names: [], kind: .words, reset: { store([], with: access, in: &$0) },
             assign: { root, text in access(&root) { $0.wrappedValue.append(text) }; return true },
             agrees: { same($0, $1, with: access) }, validate: { _ in })
    }

    /// An `@OptionGroup`: a fresh group value, then the group's options.
    static func group<Group: DirectlyParsable>(at access: @escaping Access<OptionGroup<Group>>) -> [Self] {
        let holder = Self(names: [], kind: .group, reset: { store(Group(), with: access, in: &$0) },
                          assign: { _, _ in false }, agrees: { _, _ in true },
                          validate: { root in
                              var copy = root
                              var failure: (any Error)?
                              access(&copy) { group in
                                  do { try group.wrappedValue.validate() } catch { failure = error }
                              }
                              if let failure { throw failure }
                          })
        return [holder] + Group.directOptions.map { $0.lifted(through: access) }
    }

    /// This option of a group, seen from the command that holds the group where `access` says.
    func lifted<Outer>(through access: @escaping DirectOption<Outer>.Access<OptionGroup<Root>>) -> DirectOption<Outer> {
        let (reset, assign, agrees, validate) = (self.reset, self.assign, self.agrees, self.validate)
        return DirectOption<Outer>(
            names: names, kind: kind,
            reset: { outer in access(&outer) { reset(&$0.wrappedValue) } },
            assign: { outer, text in
                var assigned = false
                access(&outer) { assigned = assign(&$0.wrappedValue, text) }
                return assigned
            },
            agrees: { first, second in
                func group(of outer: Outer) -> Root? {
                    var (outer, group) = (outer, Root?.none)
                    access(&outer) { group = $0.wrappedValue }
                    return group
                }
                guard let one = group(of: first), let other = group(of: second) else { return false }
                return agrees(one, other)
            },
            validate: { outer in
                var copy = outer
                var failure: (any Error)?
                access(&copy) { group in
                    do { try validate(group.wrappedValue) } catch { failure = error }
                }
                if let failure { throw failure }
            })
    }

    /// Sets `value` in the wrapper `access` lends, without reading the value it held.
    private static func store<Wrapper: ArgumentWrapper>(_ value: Wrapper.Value, with access: Access<Wrapper>, in root: inout Root) {
        access(&root) { $0.wrappedValue = value }
    }

    /// Whether two commands hold equal values in the wrapper `access` lends.
    private static func same<Wrapper: ArgumentWrapper>(_ first: Root, _ second: Root, with access: Access<Wrapper>) -> Bool
    where Wrapper.Value: Equatable {
        func value(of root: Root) -> Wrapper.Value? {
            var (root, value) = (root, Wrapper.Value?.none)
            access(&root) { value = $0.wrappedValue }
            return value
        }
        return value(of: first) == value(of: second)
    }
}

/// ArgumentParser's property wrappers. A command made with `init()` holds wrappers without values,
/// whose `wrappedValue` traps when read, and setting the wrapped property itself through a key
/// path reads first; so the tables reach the wrappers' storage (`_timeout`) and set values there.
protocol ArgumentWrapper {
    associatedtype Value
    var wrappedValue: Value { get set }
}

extension Flag: ArgumentWrapper {}
extension Option: ArgumentWrapper {}
extension Argument: ArgumentWrapper {}
extension OptionGroup: ArgumentWrapper {}

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
