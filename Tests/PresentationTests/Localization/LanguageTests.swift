import Testing

@testable import Presentation

@Suite struct LanguageTests {
    @Test func precedence() {
        #expect(Language.from(environment: ["LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "C", "LANG": "en_US.UTF-8"]) == .russian)
        #expect(Language.from(environment: ["LC_ALL": "C", "LC_MESSAGES": "ru_RU.UTF-8", "LANG": "ru_RU.UTF-8"]) == .english)
        #expect(Language.from(environment: ["LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"]) == .russian)
        #expect(Language.from(environment: ["LC_MESSAGES": "en_US.UTF-8", "LANG": "ru_RU.UTF-8"]) == .english)
        #expect(Language.from(environment: ["LANG": "ru_RU.UTF-8"]) == .russian)
    }

    @Test func emptyValuesAreSkipped() {
        #expect(Language.from(environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ru_RU.UTF-8"]) == .russian)
        #expect(Language.from(environment: ["LC_ALL": "", "LC_MESSAGES": "ru", "LANG": "en_US.UTF-8"]) == .russian)
        #expect(Language.from(environment: ["LC_ALL": "", "LANG": ""]) == .english)
    }

    @Test func otherVariablesDoNotCount() {
        #expect(Language.from(environment: ["LANGUAGE": "ru", "LC_CTYPE": "ru_RU.UTF-8", "LC_TIME": "ru_RU"]) == .english)
    }

    @Test(arguments: ["ru_RU.UTF-8", "ru", "ru_UA@euro", "ru_RU", "RU_ru.utf8", "ru-RU", "ru.KOI8-R"])
    func russian(identifier: String) {
        #expect(Language.from(localeIdentifier: identifier) == .russian)
        #expect(Language.from(environment: ["LANG": identifier]) == .russian)
    }

    @Test(arguments: ["C", "POSIX", "C.UTF-8", "en_US.UTF-8", "en_GB", "de_DE", "uk_UA.UTF-8", "rus", "r", "", "_RU"])
    func english(identifier: String) {
        #expect(Language.from(localeIdentifier: identifier) == .english)
        #expect(Language.from(environment: ["LC_ALL": identifier]) == .english)
    }

    @Test func missingMeansEnglish() {
        #expect(Language.from(environment: [:]) == .english)
        #expect(Language.from(environment: ["HOME": "/root", "PATH": "/usr/bin"]) == .english)
    }

    @Test func rawValuesAreLanguageCodes() {
        #expect(Language.english.rawValue == "en")
        #expect(Language.russian.rawValue == "ru")
        #expect(Set(Language.allCases) == [.english, .russian])
    }
}
