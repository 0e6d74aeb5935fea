import SwiftImport
import Testing
