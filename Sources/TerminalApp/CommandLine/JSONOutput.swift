import Foundation
import PlayerCore

/// Prints values as the `--json` output of list commands: one array, keys sorted, ISO-8601 dates.
package enum JSONOutput {
    package static func print<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            let data = try encoder.encode(value)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } catch {
            CommandFailure.exit(PlaybackError(.unknown, underlying: "encoding JSON: \(error)"))
        }
    }
}
