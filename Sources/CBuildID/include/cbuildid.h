#ifndef CBUILDID_H
#define CBUILDID_H

#include <stddef.h>

/// Copies the running program's GNU build ID (the NT_GNU_BUILD_ID note the linker writes: a hash
/// of what it linked) into `buffer`, at most `capacity` bytes, read from the program's loaded
/// headers (dl_iterate_phdr), so it is the program's own even under valgrind, whose
/// /proc/self/exe is the tool. Returns the ID's length, or 0 when the program has none.
size_t moya_build_id(unsigned char *buffer, size_t capacity);

#endif
