// `make options`: writes the option code of moya-cli (plain values, the tables `DirectParser`
// reads, the ArgumentParser declarations) and the tests' sample values from the declarations in
// Sources/OptionSpecs/Declarations. Run from the package's root; OptionSpecsTests fails while a
// written file differs from what this would write.

import OptionSpecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let problems = DeclarationProblems.all()
guard problems.isEmpty else {
    for problem in problems { print("generate-options: \(problem)") }
    print("generate-options: nothing written; fix the declarations in Sources/OptionSpecs/Declarations")
    exit(1)
}
var failed = false
for file in GeneratedFiles.all() {
    guard let stream = fopen(file.path, "w") else {
        print("generate-options: cannot write \(file.path) (run it from the package's root)")
        failed = true
        continue
    }
    if fputs(file.text, stream) < 0 || fclose(stream) != 0 {
        print("generate-options: cannot write \(file.path)")
        failed = true
    } else {
        print("generate-options: wrote \(file.path)")
    }
}
exit(failed ? 1 : 0)
