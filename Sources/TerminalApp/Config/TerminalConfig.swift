import Foundation
import Library
import PlayerCore
import TOMLKit
import TerminalUI

/// The terminal UI's settings in `$XDG_CONFIG_HOME/tonearm/config.toml` (default
/// `~/.config/tonearm/config.toml`): key bindings, one action per line, a key or a list, and the
/// station directory's server:
///
///     [keys]
///     quit = ["q", "Q"]
///     pauseResume = "space"
///
///     [directory]
///     url = "https://de1.api.radio-browser.info"
///
///     [sync]
///     password = "..."
///
///     [retries]
///     usuallyUnreachableAfter = 5   # failed runs in a row ...
///     overDays = 3                  # ... spanning at least this many days
///     probeEveryHours = 24          # automatic work still tries it this often
///
/// A file that cannot be read or used leaves the standard keys in place and says why: a typo
/// must not leave the listener without a way to pause.
package enum TerminalConfig {
    package static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectories(environment: environment).config.appendingPathComponent("config.toml")
    }

    /// The bindings to use, and a warning to show when the file was there but not usable.
    package static func bindings(from file: URL = file()) -> (bindings: KeyBindings, warning: String?) {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return (.standard, nil) }
        do {
            let decoded = try TOMLDecoder().decode(ConfigFile.self, from: text)
            var overrides: [KeyAction: [String]] = [:]
            for (name, keys) in decoded.keys ?? [:] {
                guard let action = KeyAction(rawValue: name) else {
                    return (.standard, "\(file.path): unknown action \"\(name)\"; known: \(KeyAction.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                overrides[action] = keys.names
            }
            return (try KeyBindings(overriding: overrides), nil)
        } catch let error as KeyBindingError {
            return (.standard, "\(file.path): \(error); using the standard keys")
        } catch {
            return (.standard, "\(file.path) is not valid TOML (\(error)); using the standard keys")
        }
    }

    /// `[directory] url = "..."`: the station directory server to ask instead of discovering one;
    /// nil when the file, the section or the key is missing or unreadable.
    package static func directoryURL(from file: URL = file()) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return (try? TOMLDecoder().decode(ConfigFile.self, from: text))?.directory?.url
    }

    /// `[sync] password = "..."`: the sync account's password; nil when the file, the section or
    /// the key is missing or unreadable.
    package static func syncPassword(from file: URL = file()) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return (try? TOMLDecoder().decode(ConfigFile.self, from: text))?.sync?.password
    }

    /// `[retries]`: when a feed or a podcast's downloads count as usually unreachable
    /// (`LearnedRetryRule`); the standard rule for what is missing, and a warning for values that
    /// cannot be used (the standard rule is kept whole then).
    package static func learnedRetries(from file: URL = file()) -> (rule: LearnedRetryRule, warning: String?) {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return (.standard, nil) }
        guard let section = (try? TOMLDecoder().decode(ConfigFile.self, from: text))?.retries else { return (.standard, nil) }
        let standard = LearnedRetryRule.standard
        let runs = section.usuallyUnreachableAfter ?? standard.failedRuns
        let days = section.overDays ?? standard.days
        let hours = section.probeEveryHours ?? standard.probeHours
        guard runs >= 1, days >= 0, hours >= 0, days.isFinite, hours.isFinite else {
            return (.standard, "\(file.path): [retries] wants usuallyUnreachableAfter >= 1 and overDays, probeEveryHours >= 0; using the standard rule")
        }
        return (LearnedRetryRule(failedRuns: runs, days: days, probeHours: hours), nil)
    }

    /// `[analytics]`: where opt-in sharing sends its hourly error counts (`endpoint`, an OTLP/HTTP
    /// address; `/v1/metrics` is added when it has no path) and how often at most (`everyHours`,
    /// 1 or more). No endpoint: sharing cannot happen, whatever the listener answered. A value
    /// that cannot be used leaves sharing without an endpoint, with a warning.
    package static func analyticsSharing(from file: URL = file()) -> (endpoint: String?, rule: AnalyticsSharingRule, warning: String?) {
        guard let text = try? String(contentsOf: file, encoding: .utf8),
            let section = (try? TOMLDecoder().decode(ConfigFile.self, from: text))?.analytics
        else { return (nil, .standard, nil) }
        let hours = section.everyHours ?? 1
        guard hours >= 1, hours.isFinite else {
            return (nil, .standard, "\(file.path): [analytics] everyHours wants 1 or more; nothing is shared")
        }
        let rule = AnalyticsSharingRule(interval: hours * 3600)
        guard let written = section.endpoint else { return (nil, rule, nil) }
        guard var address = URLComponents(string: written), ["http", "https"].contains(address.scheme?.lowercased() ?? ""),
            address.host?.isEmpty == false
        else {
            return (nil, rule, "\(file.path): [analytics] endpoint wants an http:// or https:// address; nothing is shared")
        }
        if address.path.isEmpty || address.path == "/" { address.path = "/v1/metrics" }
        return (address.string ?? written, rule, nil)
    }

    private struct ConfigFile: Decodable {
        var keys: [String: KeyList]?
        var directory: DirectorySection?
        var sync: SyncSection?
        var retries: RetriesSection?
        var analytics: AnalyticsSection?
    }

    private struct AnalyticsSection: Decodable {
        var endpoint: String?
        var everyHours: Double?

        private enum CodingKeys: String, CodingKey {
            case endpoint, everyHours
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            endpoint = try container.decodeIfPresent(String.self, forKey: .endpoint)
            if let whole = try? container.decodeIfPresent(Int.self, forKey: .everyHours) {
                everyHours = Double(whole)
            } else {
                everyHours = try container.decodeIfPresent(Double.self, forKey: .everyHours)
            }
        }
    }

    private struct RetriesSection: Decodable {
        var usuallyUnreachableAfter: Int?
        var overDays: Double?
        var probeEveryHours: Double?

        private enum CodingKeys: String, CodingKey {
            case usuallyUnreachableAfter, overDays, probeEveryHours
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            usuallyUnreachableAfter = try container.decodeIfPresent(Int.self, forKey: .usuallyUnreachableAfter)
            overDays = try Self.number(container, .overDays)
            probeEveryHours = try Self.number(container, .probeEveryHours)
        }

        /// TOML tells `3` from `3.0`; a listener should not have to.
        private static func number(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Double? {
            if let whole = try? container.decodeIfPresent(Int.self, forKey: key) { return Double(whole) }
            return try container.decodeIfPresent(Double.self, forKey: key)
        }
    }

    private struct SyncSection: Decodable {
        var password: String?
    }

    private struct DirectorySection: Decodable {
        var url: String?
    }

    private struct KeyList: Decodable {
        var names: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                names = [one]
            } else {
                names = try container.decode([String].self)
            }
        }
    }
}
