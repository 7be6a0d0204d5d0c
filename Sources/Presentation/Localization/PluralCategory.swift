import PlayerCore

/// The plural forms a catalog may give a counted text (`key.one`, `key.few`, `key.many`,
/// `key.other`), chosen by each language's rule for whole numbers (the CLDR plural rules). Every
/// counted text has `other`; a language adds the forms its rule names.
package enum PluralCategory: String, Sendable, Hashable, CaseIterable {
    case one, few, many, other

    /// The form `count` takes in `language`. A new language adds its rule here.
    package init(_ count: Int, in language: Language) {
        let n = count.magnitude
        switch language {
        case .english:
            self = n == 1 ? .one : .other
        case .russian:
            // 1, 21, 101: one; 2-4, 22-24: few; 0, 5-20, 25-30, 11-14: many.
            if n % 10 == 1 && n % 100 != 11 {
                self = .one
            } else if (2...4).contains(n % 10) && !(12...14).contains(n % 100) {
                self = .few
            } else {
                self = .many
            }
        }
    }

    /// The forms `language` uses for whole numbers.
    package static func forms(in language: Language) -> Set<PluralCategory> {
        switch language {
        case .english: [.one, .other]
        case .russian: [.one, .few, .many, .other]
        }
    }
}
