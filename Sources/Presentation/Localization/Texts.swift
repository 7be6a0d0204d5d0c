import Foundation
import PlayerCore

/// A key of the text catalogs (`Resources/<language>.lproj/Localizable.strings`). Typed key
/// enums conform, so call sites name a case and never spell a catalog key.
package protocol TextKey: Sendable {
    /// The key as written in the catalogs, e.g. `ui.nothingPlaying`.
    var catalogKey: String { get }
}

/// The one lookup of user-facing texts.
///
/// Rules:
/// - The language is always passed in; nothing here reads the process locale.
/// - A key the language's catalog lacks, or whose translation is broken (unreadable file,
///   different placeholders than English), falls back to English; a key English lacks shows the
///   key itself. No lookup ever stops the program.
/// - Texts are printf templates (`%@` text, `%d` integer, `%1$@` numbered); a literal percent sign
///   is written `%%` in every text, with or without arguments.
/// - An argument that does not fit its placeholder (an integer where the text has `%@`) is a
///   programming error: the text is then shown unformatted rather than formatted wrongly.
package enum Texts {
    /// The text of `key` in `language`.
    package static func string(_ key: String, in language: Language) -> String {
        catalog.format(key, in: language, arguments: [])
    }

    package static func string(_ key: some TextKey, in language: Language) -> String {
        catalog.format(key.catalogKey, in: language, arguments: [])
    }

    /// The text of `key` in `language` with its placeholders filled by `arguments`, in one pass
    /// (an argument that itself contains `%@` is never expanded).
    package static func format(_ key: String, in language: Language, _ arguments: any CVarArg...) -> String {
        catalog.format(key, in: language, arguments: arguments)
    }

    package static func format(_ key: some TextKey, in language: Language, _ arguments: any CVarArg...) -> String {
        catalog.format(key.catalogKey, in: language, arguments: arguments)
    }

    static func format(_ key: String, in language: Language, arguments: [any CVarArg]) -> String {
        catalog.format(key, in: language, arguments: arguments)
    }

    /// The form of `key` for `count` in `language`: the catalog holds `key.one`, `key.few`,
    /// `key.many` and `key.other` as the language needs (see `PluralCategory`); a missing form
    /// falls back to `key.other`. `count` is the first argument (`%d`), the rest follow it.
    package static func plural(_ key: String, count: Int, in language: Language, _ arguments: any CVarArg...) -> String {
        catalog.plural(key, count: count, in: language, arguments: arguments)
    }

    /// The catalogs, read once from the package's resources.
    static let catalog = TextCatalog.load(from: bundle)

    /// Presentation's resource bundle, which SwiftPM places beside the executable
    /// (`Tonearm_Presentation.resources`); a program without it stops with a message naming
    /// where it looked.
    static var bundle: Bundle { Bundle.module }
}

extension TextCatalog {
    /// `key`'s text in `language`, else in English, else the key itself; filled with `arguments`.
    func format(_ key: String, in language: Language, arguments: [any CVarArg]) -> String {
        // A loaded translation has English's placeholders, so arguments that do not fit it would
        // not fit English either: the text is shown as it stands.
        guard let template = Self.candidates(language).lazy.compactMap({ self.text(for: key, in: $0) }).first else {
            return key
        }
        return FormatTemplate.fill(template, with: arguments) ?? template
    }

    /// The plural form of `key` for `count`, looked up as `format` does; each language picks its
    /// own form, so falling back to English also picks English's.
    func plural(_ key: String, count: Int, in language: Language, arguments: [any CVarArg]) -> String {
        let other = "\(key).\(PluralCategory.other.rawValue)"
        for candidate in Self.candidates(language) {
            let form = "\(key).\(PluralCategory(count, in: candidate).rawValue)"
            guard let template = text(for: form, in: candidate) ?? text(for: other, in: candidate) else { continue }
            return FormatTemplate.fill(template, with: [count] + arguments) ?? template
        }
        return other
    }

    /// `language`, then English.
    private static func candidates(_ language: Language) -> [Language] {
        language == .english ? [.english] : [language, .english]
    }
}
