import CLibFuzzer

#if canImport(Glibc)
import Glibc
#endif

/// The program: libFuzzer's driver calling ``fuzzYAML(_:_:)`` for each input it makes (`make fuzz`),
/// or, in the package's ordinary builds, for each file named on the command line.
@main
enum Harness {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzYAML(data, size) })
    }
}
