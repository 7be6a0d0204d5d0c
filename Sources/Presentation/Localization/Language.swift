import Foundation

/// The languages Tonearm speaks: each has a catalog, `Resources/<rawValue>.lproj/Localizable.strings`,
/// and a plural rule in `PluralCategory`. Every user-facing text exists in each of them (a missing
/// one falls back to English).
package enum Language: String, Sendable, Hashable, Codable, CaseIterable {
    case english = "en"
    case russian = "ru"

    /// The language POSIX locale variables ask for: the first non-empty of `LC_ALL`,
    /// `LC_MESSAGES`, `LANG` decides (as setlocale does); anything we do not speak is English.
    package static func from(environment: [String: String]) -> Language {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[key], !value.isEmpty else { continue }
            return from(localeIdentifier: value)
        }
        return .english
    }

    /// `ru_RU.UTF-8`, `ru`, `ru_UA@euro` -> Russian; `C`, `POSIX`, `en_GB` and others -> English.
    package static func from(localeIdentifier: String) -> Language {
        let lowered = localeIdentifier.lowercased()
        let code = lowered.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "_" || $0 == "." || $0 == "@" || $0 == "-" }
        ).first.map(String.init) ?? ""
        return Language(rawValue: code) ?? .english
    }
}

extension Language {
    /// The language of this process's locale environment, read once: what front ends pass on.
    /// The text functions never read it themselves; they are always given their language.
    package static let current: Language = from(environment: ProcessInfo.processInfo.environment)
}
