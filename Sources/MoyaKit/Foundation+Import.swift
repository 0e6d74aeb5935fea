// FoundationEssentials, not full Foundation: a third of the start-up (budget "call --stub (github zen)").
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
@_exported import HTTPTypes
