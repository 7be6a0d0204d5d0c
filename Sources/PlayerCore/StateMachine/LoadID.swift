import Foundation

/// Identifies one `load` effect, so a late answer about an abandoned load is recognised and ignored.
public struct LoadID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public var description: String { "load#\(value)" }
}
