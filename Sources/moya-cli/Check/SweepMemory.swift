#if canImport(Glibc)
import Glibc
#endif

/// The memory rule of a live sweep, set before its files are loaded.
///
/// glibc gives each thread that allocates its own malloc arena (up to eight per core), and a
/// thread's freed memory stays in its arena for that thread alone: the loader's second thread,
/// the thread that drives the transfers and the check queue's workers each kept theirs, and the
/// memory the loader freed was not what the checks then allocated from. With two arenas (the main
/// thread's, and one the others share) a sweep of 10,000 checks peaked about 1 MB lower, at the
/// same speed (`make bench`, issue 42); with one, every thread waited on the same lock.
enum SweepMemory {
    /// The arenas glibc may make for this process.
    static let arenas: Int32 = 2

    /// Limits glibc's malloc arenas to `arenas`. `mallopt` is looked up rather than imported (the
    /// Glibc module does not declare it); without glibc's, nothing changes.
    static func limitArenas() {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        // M_ARENA_MAX in <malloc.h>.
        let arenaMaximum: Int32 = -8
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaximum, arenas)
        #endif
    }
}
