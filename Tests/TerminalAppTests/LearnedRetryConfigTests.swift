import Foundation
import PlayerCore
import Testing

@testable import TerminalApp

/// `[retries]` in config.toml: whole numbers or not, what is missing from the standard rule,
/// and values that cannot be used leave the standard rule with a warning.
@Suite("config.toml: [retries]")
struct LearnedRetryConfigTests {
    static func rule(_ text: String?) throws -> (rule: LearnedRetryRule, warning: String?) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-config-\(UUID().uuidString).toml")
        defer { try? FileManager.default.removeItem(at: file) }
        if let text { try text.write(to: file, atomically: true, encoding: .utf8) }
        return TerminalConfig.learnedRetries(from: file)
    }

    @Test func theSectionSetsTheRule() throws {
        #expect(try Self.rule(nil) == (.standard, nil))
        #expect(try Self.rule("[keys]\nquit = \"q\"\n") == (.standard, nil))
        #expect(try Self.rule("[retries]\nusuallyUnreachableAfter = 3\noverDays = 1.5\nprobeEveryHours = 6\n")
            == (LearnedRetryRule(failedRuns: 3, days: 1.5, probeHours: 6), nil))
        #expect(try Self.rule("[retries]\noverDays = 7\n") == (LearnedRetryRule(failedRuns: 5, days: 7, probeHours: 24), nil))
    }

    @Test func unusableValuesKeepTheStandardRuleAndSaySo() throws {
        for text in ["[retries]\nusuallyUnreachableAfter = 0\n", "[retries]\noverDays = -1\n", "[retries]\nprobeEveryHours = -2.5\n"] {
            let (rule, warning) = try Self.rule(text)
            #expect(rule == .standard)
            #expect(warning?.contains("[retries]") == true, "\(text): \(String(describing: warning))")
        }
    }
}
