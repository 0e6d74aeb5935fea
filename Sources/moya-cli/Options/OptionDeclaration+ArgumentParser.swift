import ArgumentParser

// ArgumentParser's wrappers made from a table entry: `@Option(RequestOptions.retry)` takes its
// names, help and value name from `RequestOptions.retry`, the entry `DirectParser` reads. The
// default is the wrapper's initial value, the plain group's own (`= RequestOptions().retry`).

extension OptionDeclaration {
    /// The spellings as ArgumentParser's names (`"-H"`: a short name, `"--header"`: a long one).
    var nameSpecification: NameSpecification {
        NameSpecification(names.map { NameSpecification.Element(stringLiteral: $0) })
    }

    var argumentHelp: ArgumentHelp {
        ArgumentHelp(help, valueName: valueName.isEmpty ? nil : valueName)
    }
}

extension Option where Value: ExpressibleByArgument {
    /// The option `declaration` declares; `wrappedValue` when not given.
    init<Root>(wrappedValue: Value, _ declaration: OptionDeclaration<Root>, completion: CompletionKind? = nil) {
        self.init(
            wrappedValue: wrappedValue, name: declaration.nameSpecification, help: declaration.argumentHelp,
            completion: completion)
    }
}

extension Option {
    /// The option `declaration` declares; `nil` when not given.
    init<Root, T: ExpressibleByArgument>(_ declaration: OptionDeclaration<Root>, completion: CompletionKind? = nil)
    where Value == T? {
        self.init(name: declaration.nameSpecification, help: declaration.argumentHelp, completion: completion)
    }

    /// The repeatable option `declaration` declares; `wrappedValue` when not given.
    init<Root, T: ExpressibleByArgument>(
        wrappedValue: [T], _ declaration: OptionDeclaration<Root>, completion: CompletionKind? = nil
    )
    where Value == [T] {
        self.init(
            wrappedValue: wrappedValue, name: declaration.nameSpecification, help: declaration.argumentHelp,
            completion: completion)
    }
}

extension Flag where Value == Bool {
    /// The flag `declaration` declares, `false` unless given.
    init<Root>(_ declaration: OptionDeclaration<Root>) {
        self.init(wrappedValue: false, name: declaration.nameSpecification, help: declaration.argumentHelp)
    }
}

extension Argument {
    /// The words `declaration` declares, as a positional argument parsed by `parsing`.
    init<Root, T: ExpressibleByArgument>(
        wrappedValue: [T], _ declaration: OptionDeclaration<Root>, parsing: ArgumentArrayParsingStrategy = .remaining,
        completion: CompletionKind? = nil
    ) where Value == [T] {
        self.init(wrappedValue: wrappedValue, parsing: parsing, help: declaration.argumentHelp, completion: completion)
    }

    /// The one optional word `declaration` declares.
    init<Root, T: ExpressibleByArgument>(_ declaration: OptionDeclaration<Root>, completion: CompletionKind? = nil)
    where Value == T? {
        self.init(help: declaration.argumentHelp, completion: completion)
    }
}
