import Foundation
import PlayerCore
import PresentationFixtures
import Testing

@testable import Presentation

/// The catalogs as translators wrote them: every language has every key, every plural form its
/// rule needs, and the placeholders of English.
@Suite struct TextCatalogTests {
    static let bundle = Texts.bundle

    static func raw(_ language: Language) throws -> [String: String] {
        try TextCatalog.rawTable(language, in: bundle)
    }

    @Test(arguments: Language.allCases)
    func everyLanguageHasAReadableCatalog(_ language: Language) throws {
        let table = try Self.raw(language)
        #expect(!table.isEmpty)
    }

    @Test func theCatalogFoldersAreExactlyTheLanguages() {
        let folders = Set(Self.bundle.localizations.filter { $0 != "Base" })
        #expect(folders == Set(Language.allCases.map(\.rawValue)))
    }

    @Test(arguments: Language.allCases)
    func everyKeyExistsInEveryLanguage(_ language: Language) throws {
        let english = try Self.raw(.english)
        let table = try Self.raw(language)
        let singles = Set(english.keys.filter { TextCatalog.pluralReference($0) == $0 })
        let counted = Set(english.keys.filter { TextCatalog.pluralReference($0) != $0 }.map(Self.base))
        for key in singles.sorted() {
            #expect(table[key] != nil, "\(language.rawValue) lacks \(key)")
        }
        for base in counted.sorted() {
            for form in PluralCategory.forms(in: language) {
                #expect(table["\(base).\(form.rawValue)"] != nil, "\(language.rawValue) lacks \(base).\(form.rawValue)")
            }
        }
        for key in table.keys.sorted() {
            let known = singles.contains(key) || (counted.contains(Self.base(key)) && TextCatalog.pluralReference(key) != key)
            #expect(known, "\(language.rawValue) has \(key), which English does not")
            if let form = Self.form(key), counted.contains(Self.base(key)) {
                #expect(PluralCategory.forms(in: language).contains(form), "\(language.rawValue) never uses \(key)")
            }
        }
    }

    @Test(arguments: Language.allCases)
    func everyTranslationKeepsTheEnglishPlaceholders(_ language: Language) throws {
        let english = try Self.raw(.english)
        for (key, text) in try Self.raw(language).sorted(by: { $0.key < $1.key }) {
            let placeholders = FormatTemplate.placeholders(text)
            #expect(placeholders != nil, "\(language.rawValue) \(key) is not a well-formed template: \(text)")
            guard let reference = english[key] ?? english[TextCatalog.pluralReference(key)] else { continue }
            #expect(
                placeholders == FormatTemplate.placeholders(reference),
                "\(language.rawValue) \(key): \(Self.describe(placeholders)) where English has \(Self.describe(FormatTemplate.placeholders(reference)))")
        }
    }

    @Test(arguments: Language.allCases)
    func noKeyIsWrittenTwice(_ language: Language) throws {
        let url = try #require(TextCatalog.fileURL(language, in: Self.bundle))
        let keys = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasPrefix("\""), let end = line.dropFirst().firstIndex(of: "\"") else { return nil }
            return line[line.index(after: line.startIndex)..<end]
        }
        let repeated = Dictionary(grouping: keys, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "\(language.rawValue) repeats \(repeated)")
    }

    @Test(arguments: Language.allCases)
    func theLoadedCatalogKeepsEveryTranslation(_ language: Language) throws {
        #expect(Texts.catalog.keys(in: language) == Set(try Self.raw(language).keys))
    }

    private static func base(_ key: String) -> String {
        key.lastIndex(of: ".").map { String(key[..<$0]) } ?? key
    }

    private static func form(_ key: String) -> PluralCategory? {
        key.lastIndex(of: ".").flatMap { PluralCategory(rawValue: String(key[key.index(after: $0)...])) }
    }

    private static func describe(_ placeholders: [Int: FormatTemplate.Kind]?) -> String {
        guard let placeholders else { return "malformed" }
        return placeholders.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
    }
}

/// The lookup's rules on small made-up catalogs.
@Suite struct TextLookupTests {
    let catalog = TextCatalog(tables: [
        .english: [
            "greeting": "Hello", "named": "Hello, %@", "both": "%@ of %@", "percent": "100%%",
            "count.one": "%d file", "count.other": "%d files",
        ],
        .russian: [
            "greeting": "Привет", "named": "Привет, %d", "both": "%2$@ из %1$@", "extra": "Лишний",
            "count.one": "%d файл", "count.few": "%d файла", "count.many": "%d файлов", "count.other": "%d файла",
        ],
    ])

    @Test func aTranslationIsUsedWhenItIsThere() {
        #expect(catalog.format("greeting", in: .russian, arguments: []) == "Привет")
        #expect(catalog.format("both", in: .russian, arguments: ["1", "2"]) == "2 из 1")
    }

    @Test func aMissingTranslationFallsBackToEnglish() {
        #expect(catalog.format("percent", in: .russian, arguments: []) == "100%")
    }

    @Test func aTranslationWithOtherPlaceholdersIsDroppedForEnglish() {
        #expect(catalog.text(for: "named", in: .russian) == nil)
        #expect(catalog.format("named", in: .russian, arguments: ["Ann"]) == "Hello, Ann")
    }

    @Test func aKeyEnglishLacksIsDroppedAndAnUnknownKeyShowsItself() {
        #expect(catalog.text(for: "extra", in: .russian) == nil)
        #expect(catalog.format("nowhere", in: .russian, arguments: []) == "nowhere")
    }

    @Test func argumentsAreNeverExpandedAgain() {
        #expect(catalog.format("named", in: .english, arguments: ["%@ %d %%"]) == "Hello, %@ %d %%")
    }

    @Test func pluralFormsFollowEachLanguagesRule() {
        let russian = [0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112].map {
            catalog.plural("count", count: $0, in: .russian, arguments: [])
        }
        #expect(russian == [
            "0 файлов", "1 файл", "2 файла", "4 файла", "5 файлов", "11 файлов", "12 файлов", "14 файлов",
            "21 файл", "22 файла", "25 файлов", "101 файл", "111 файлов", "112 файлов",
        ])
        #expect(catalog.plural("count", count: 1, in: .english, arguments: []) == "1 file")
        #expect(catalog.plural("count", count: 21, in: .english, arguments: []) == "21 files")
    }

    @Test func aLanguageWithoutTheTextFallsBackToEnglishForms() {
        let partial = TextCatalog(tables: [.english: ["count.one": "%d file", "count.other": "%d files"], .russian: [:]])
        #expect(partial.plural("count", count: 1, in: .russian, arguments: []) == "1 file")
        #expect(partial.plural("count", count: 3, in: .russian, arguments: []) == "3 files")
    }

    @Test func withoutEnglishEveryKeyShowsItself() {
        let empty = TextCatalog(tables: [.russian: ["greeting": "Привет"]])
        #expect(empty.format("greeting", in: .russian, arguments: []) == "greeting")
    }
}

@Suite struct FormatTemplateTests {
    @Test func placeholders() {
        #expect(FormatTemplate.placeholders("plain") == [:])
        #expect(FormatTemplate.placeholders("100%% sure") == [:])
        #expect(FormatTemplate.placeholders("%@ and %d") == [1: .text, 2: .integer])
        #expect(FormatTemplate.placeholders("%2$@ then %1$ld") == [1: .integer, 2: .text])
        #expect(FormatTemplate.placeholders("%.1f%% of %@") == [1: .floating, 2: .text])
        #expect(FormatTemplate.placeholders("%1$@ %1$@") == [1: .text])
    }

    @Test(arguments: ["100% sure", "ends with %", "%s", "%*d", "%1$@ %@", "%2$@", "%1$@ %1$d", "%0$@"])
    func malformed(_ template: String) {
        #expect(FormatTemplate.placeholders(template) == nil)
        #expect(FormatTemplate.fill(template, with: ["x", 1]) == nil)
    }

    @Test func fill() {
        #expect(FormatTemplate.fill("Buffer %d%%", with: [42]) == "Buffer 42%")
        #expect(FormatTemplate.fill("%2$@, %1$@", with: ["a", "b"]) == "b, a")
        #expect(FormatTemplate.fill("%@", with: [1]) == nil)
        #expect(FormatTemplate.fill("%d", with: ["1"]) == nil)
        #expect(FormatTemplate.fill("%@ %@", with: ["1"]) == nil)
        #expect(FormatTemplate.fill("Ёж «%@»", with: ["ёлка"]) == "Ёж «ёлка»")
    }
}

/// Every text the error and state functions build comes from the catalog of the language asked
/// for: a missing key would show the key itself (`error.…`, `state.…`), a missing translation
/// the English text.
@Suite struct CatalogCoverageTests {
    static func errors() -> [PlaybackError] {
        var errors: [PlaybackError] = []
        for code in PlaybackError.Code.allCases {
            for status in [nil, 400, 401, 403, 404, 408, 410, 418, 429, 500, 502, 503, 504] as [Int?] {
                for host in [nil, "a.example"] as [String?] {
                    for retry in [nil, .seconds(0), .seconds(28), .seconds(600)] as [RetryAfter?] {
                        errors.append(PlaybackError(code, httpStatus: status, retryAfter: retry, host: host))
                    }
                }
            }
        }
        for action in PlayerAction.allCases {
            for state in PlayerState.Name.allCases { errors.append(.invalidTransition(action, in: state)) }
        }
        return errors
    }

    static func looksLikeAKey(_ text: String) -> Bool {
        text.contains(/(error|state|ui|terminal)\.[A-Za-z]+\.?/)
    }

    /// English texts have no Cyrillic letters and Russian ones have some; other languages are
    /// not checked this way.
    static func checkScript(_ text: String, _ language: Language, sourceLocation: SourceLocation = #_sourceLocation) {
        guard language == .english || language == .russian else { return }
        let cyrillic = text.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
        #expect(cyrillic == (language == .russian), "\(language): \(text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: ErrorOperation.allCases)
    func errorTexts(_ operation: ErrorOperation) {
        for error in Self.errors() {
            for language in Language.allCases {
                let text = error.text(in: language, for: operation)
                for field in [text.title, text.message, text.recoverySuggestion] {
                    #expect(!Self.looksLikeAKey(field), "\(error) \(operation) \(language): \(field)")
                    #expect(!field.contains("%"), "\(error) \(operation) \(language): \(field)")
                    Self.checkScript(field, language)
                }
            }
        }
    }

    @Test func stateTexts() {
        for sample in Samples.states {
            for language in Language.allCases {
                for now in [nil, Samples.now] as [PlayerTime?] {
                    for text in [sample.state.statusText(in: language, now: now), sample.state.displayText(in: language, now: now)] {
                        #expect(!Self.looksLikeAKey(text), "\(sample.label) \(language): \(text)")
                        Self.checkScript(text, language)
                    }
                }
            }
        }
    }
}
