import Foundation

/// A size as a listener types it: `500M`, `2G`, `1.5GB`, `750k`, a plain number of bytes, or
/// `none` (no limit). Decimal units, as disks are sold and as `df -H` prints them.
package struct StorageSize: Sendable, Equatable {
    /// Nil for `none`.
    package var bytes: Int64?

    package static func parse(_ text: String) -> StorageSize? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if text == "none" || text == "off" { return StorageSize(bytes: nil) }
        let units: [(suffix: String, factor: Double)] = [
            ("tb", 1e12), ("gb", 1e9), ("mb", 1e6), ("kb", 1e3), ("t", 1e12), ("g", 1e9), ("m", 1e6), ("k", 1e3), ("b", 1),
        ]
        var number = text
        var factor = 1.0
        if let unit = units.first(where: { text.hasSuffix($0.suffix) }) {
            number = String(text.dropLast(unit.suffix.count))
            factor = unit.factor
        }
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0, value * factor < 9e18 else {
            return nil
        }
        return StorageSize(bytes: Int64((value * factor).rounded()))
    }
}
