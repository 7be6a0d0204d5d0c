import Digests
import Foundation

/// The identifier sent with shared counts: HMAC-SHA256 of the rotation period under the machine's
/// secret salt, cut to 16 hex digits. It tells an operator that counts came from one player within
/// a week; it changes every week, cannot be tied to next week's, and is derived from nothing about
/// the machine or the listener (the salt is random and never leaves the library).
package enum AnalyticsPseudonym {
    /// A week, counted from the Unix epoch.
    package static let rotationSeconds: Double = 7 * 86_400

    package static func period(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / rotationSeconds).rounded(.down))
    }

    package static func identifier(salt: [UInt8], at date: Date) -> String {
        let code = HMACSHA256.authenticationCode(for: Array("tonearm-analytics-\(period(of: date))".utf8), key: salt)
        return code.prefix(8).lowercaseHexadecimal
    }
}
