import ArgumentParser
import MoyaKit
import OrderedJSON

/// The value of a number option (`--delay`, `--timeout`, `--connect-timeout`, `--rate`), written in
/// decimal as moya-cli(1) says: `30`, `0.5`, `1e3`.
///
/// Swift's `Double(_:)`, which ArgumentParser reads `Double` options with, also takes
/// hexadecimal (`0x10`, `0x1p3`), `inf` and `nan`; those are refused here, so ArgumentParser
/// names the option and exits 64 (`The value '0x10' is invalid for '--delay <seconds>'`).
struct DecimalNumber: ExpressibleByArgument, Equatable {
    /// The number.
    var value: Double

    /// A decimal numeral within `Double`'s range; `nil` for anything else.
    init?(argument: String) {
        guard let number = JSONNumber(decimal: argument), let value = number.doubleValue else { return nil }
        self.value = value
    }
}
