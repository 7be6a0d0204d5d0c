import Foundation
import PlayerCore

/// The text catalogs: one `Localizable.strings` per language, in `Resources/<code>.lproj/`, where
/// `<code>` is the `Language`'s raw value. SwiftPM ships them as the module's localized resources.
///
/// `Bundle` finds each language's file (by its explicit `.lproj`, never the process locale) and
/// `PropertyListSerialization` reads it: the same old-style property-list parser `Bundle` uses for
/// `localizedString(forKey:value:table:)`. Reading the table whole, rather than asking `Bundle`
/// key by key, lets the catalog check every translation once when it loads and lets the tests
/// list every key.
///
/// Rules applied when loading: English is the reference. A translation whose placeholders differ
/// from English's (see `FormatTemplate.placeholders`), or whose key English does not have (for a
/// plural form such as `x.few`, English's `x.other`), is left out, so the English text shows instead of a wrong or crashing format. A language whose
/// file is missing or unreadable contributes nothing and every text falls back to English.
struct TextCatalog: Sendable {
    /// The catalog file's name in each `.lproj` folder.
    static let table = "Localizable"

    private let tables: [Language: [String: String]]

    init(tables: [Language: [String: String]]) {
        guard let english = tables[.english] else {
            self.tables = [:]
            return
        }
        var checked: [Language: [String: String]] = [.english: english]
        for (language, table) in tables where language != .english {
            checked[language] = table.filter { key, text in
                guard let reference = english[key] ?? english[TextCatalog.pluralReference(key)] else { return false }
                return TextCatalog.placeholdersMatch(text, reference)
            }
        }
        self.tables = checked
    }

    /// The text of `key` in `language`'s catalog alone, without falling back.
    func text(for key: String, in language: Language) -> String? {
        tables[language]?[key]
    }

    /// Every key of `language`'s catalog (after the load checks).
    func keys(in language: Language) -> Set<String> {
        Set(tables[language].map { Array($0.keys) } ?? [])
    }

    /// A plural form's English reference: `x.few` is checked against `x.other`, since English
    /// has no `few` form. Any other key is its own reference.
    static func pluralReference(_ key: String) -> String {
        guard let dot = key.lastIndex(of: "."), PluralCategory(rawValue: String(key[key.index(after: dot)...])) != nil else {
            return key
        }
        return key[..<dot] + "." + PluralCategory.other.rawValue
    }

    static func load(from bundle: Bundle) -> TextCatalog {
        var tables: [Language: [String: String]] = [:]
        for language in Language.allCases {
            tables[language] = try? rawTable(language, in: bundle)
        }
        return TextCatalog(tables: tables)
    }

    /// `language`'s file as written, before any check. Throws when it is missing or unreadable.
    static func rawTable(_ language: Language, in bundle: Bundle) throws -> [String: String] {
        guard let url = fileURL(language, in: bundle) else { throw CatalogError.missing(language.rawValue) }
        let parsed = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        guard let table = parsed as? [String: String] else { throw CatalogError.notStrings(language.rawValue) }
        return table
    }

    /// `Resources/<code>.lproj/Localizable.strings`.
    static func fileURL(_ language: Language, in bundle: Bundle) -> URL? {
        bundle.url(forResource: table, withExtension: "strings", subdirectory: nil, localization: language.rawValue)
    }

    /// True when `translation` has the same placeholders (positions and kinds) as `reference`
    /// and both are well formed.
    static func placeholdersMatch(_ translation: String, _ reference: String) -> Bool {
        guard let mine = FormatTemplate.placeholders(translation), let theirs = FormatTemplate.placeholders(reference) else {
            return false
        }
        return mine == theirs
    }

    enum CatalogError: Error, Equatable {
        case missing(String)
        case notStrings(String)
    }
}
