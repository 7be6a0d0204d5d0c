/// The words dates are written with: months, weekdays and zones, all matched in lower case.
extension FeedDate {
    static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayAbbreviations = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The month a word names, or nil: English full and abbreviated (`June`, `Jun`, `Sept`), and
    /// the names feeds from generators set to another language write (German, French, Spanish,
    /// Italian, Portuguese, Dutch and Russian, full, abbreviated, with and without accents).
    /// No word here means another month in another language, so one table serves them all.
    static func monthNumber(_ word: String) -> Int? { monthsByName[word] }

    /// True for an English weekday, full or cut short after three letters (`Tue`, `Tues`, `Tuesday`).
    static func isWeekday(_ word: String) -> Bool {
        word.count >= 3 && fullWeekdayNames.contains { $0.hasPrefix(word) }
    }

    private static let fullWeekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private static let monthsByName: [String: Int] = {
        let names: [[String]] = [
            ["jan", "january", "januar", "jänner", "jän", "janvier", "janv", "enero", "ene", "gennaio", "gen", "janeiro", "januari",
             "января", "январь", "янв"],
            ["feb", "february", "februar", "février", "fevrier", "févr", "fevr", "fév", "fev", "febrero", "febbraio", "fevereiro",
             "februari", "февраля", "февраль", "фев"],
            ["mar", "march", "märz", "marz", "maerz", "mär", "mrz", "mars", "marzo", "março", "marco", "maart", "mrt", "марта",
             "март", "мар"],
            ["apr", "april", "avril", "avr", "abril", "abr", "aprile", "апреля", "апрель", "апр"],
            ["may", "mai", "mayo", "maggio", "mag", "maio", "mei", "мая", "май"],
            ["jun", "june", "juni", "juin", "junio", "giugno", "giu", "junho", "июня", "июнь", "июн"],
            ["jul", "july", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho", "июля", "июль", "июл"],
            ["aug", "august", "août", "aout", "agosto", "ago", "augustus", "августа", "август", "авг"],
            ["sep", "sept", "september", "septembre", "septiembre", "setiembre", "settembre", "setembro", "set", "сентября",
             "сентябрь", "сен", "сент"],
            ["oct", "october", "oktober", "okt", "octobre", "octubre", "ottobre", "ott", "outubro", "out", "октября", "октябрь",
             "окт"],
            ["nov", "november", "novembre", "noviembre", "novembro", "ноября", "ноябрь", "ноя"],
            ["dec", "december", "dezember", "dez", "décembre", "decembre", "déc", "diciembre", "dic", "dicembre", "dezembro",
             "декабря", "декабрь", "дек"],
        ]
        var table: [String: Int] = [:]
        for (index, words) in names.enumerated() {
            for word in words { table[word] = index + 1 }
        }
        return table
    }()

    /// Zone abbreviations and their offsets from UTC in minutes: RFC 822's own, and the common
    /// ones the Java date parsers many podcast apps use know in the US locale. One that names zones
    /// on several continents gets its most common reading (`CST` is Chicago's, `IST` India's,
    /// `AST` the Atlantic's).
    static let zoneOffsets: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "wet": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420,
        "mdt": -360, "pst": -480, "pdt": -420, "akst": -540, "akdt": -480, "hst": -600, "ast": -240, "adt": -180,
        "nst": -210, "ndt": -150, "brt": -180, "west": 60, "bst": 60, "cet": 60, "cest": 120, "eet": 120, "eest": 180,
        "sast": 120, "msk": 180, "ist": 330, "sgt": 480, "hkt": 480, "awst": 480, "jst": 540, "kst": 540, "acst": 570,
        "acdt": 630, "aest": 600, "aedt": 660, "nzst": 720, "nzdt": 780,
    ]

    /// Zones spelled out (`Eastern Daylight Time`), as Java's parsers also accept them.
    static let longZoneOffsets: [String: Int] = [
        "greenwich mean time": 0, "coordinated universal time": 0, "western european time": 0,
        "western european summer time": 60, "british summer time": 60, "central european time": 60,
        "central european standard time": 60, "central european summer time": 120, "eastern european time": 120,
        "eastern european standard time": 120, "eastern european summer time": 180, "moscow standard time": 180,
        "india standard time": 330, "japan standard time": 540, "australian eastern standard time": 600,
        "australian eastern daylight time": 660, "eastern standard time": -300, "eastern daylight time": -240,
        "central standard time": -360, "central daylight time": -300, "mountain standard time": -420,
        "mountain daylight time": -360, "pacific standard time": -480, "pacific daylight time": -420,
        "alaska standard time": -540, "alaska daylight time": -480, "hawaii standard time": -600,
        "atlantic standard time": -240, "atlantic daylight time": -180,
    ]

    /// The most words a spelled-out zone has.
    static let longestZoneName = 4
}
