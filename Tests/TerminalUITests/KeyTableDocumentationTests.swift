import Foundation
import Testing
import TerminalUI

/// docs/USAGE.md's key table is the standard bindings: one row per action, named as config.toml
/// names it, with its standard keys in the order the hints show them.
@Suite("The documented keys")
struct KeyTableDocumentationTests {
    static let usage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/USAGE.md")

    @Test func usageKeyTableIsTheStandardBindings() throws {
        let lines = try String(contentsOf: Self.usage, encoding: .utf8).components(separatedBy: "\n")
        let section = try #require(lines.firstIndex(of: "## Keys"), "docs/USAGE.md has no Keys section")
        let rows = lines[section...].drop { !$0.hasPrefix("| action |") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        let backticks = CharacterSet(charactersIn: "` ")
        var documented: [KeyAction: [Key]] = [:]
        for row in rows {
            let cells = row.components(separatedBy: " | ")
            try #require(cells.count == 3, "not a row of three cells: \(row)")
            let name = cells[0].dropFirst(2).trimmingCharacters(in: backticks)
            let action = try #require(KeyAction(rawValue: name), "no action \(name)")
            #expect(documented[action] == nil, "\(name) has two rows")
            documented[action] = try cells[1].components(separatedBy: ", ").map { keyName in
                try #require(Key(name: keyName.trimmingCharacters(in: backticks)), "\(name): \(keyName) is no key name")
            }
        }
        for action in KeyAction.allCases {
            #expect(documented[action] == KeyBindings.standard.keys[action], "the row of \(action.rawValue)")
        }
    }
}
