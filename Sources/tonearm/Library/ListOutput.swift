import Foundation
import PlayerCore

/// Prints values as the `--json` output of list commands: one array, keys sorted, ISO-8601 dates.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            let data = try encoder.encode(value)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } catch {
            ErrorOutput.fail(PlaybackError(.unknown, underlying: "encoding JSON: \(error)"))
        }
    }
}

/// A plain-text table for list commands: columns padded to their widest cell.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
