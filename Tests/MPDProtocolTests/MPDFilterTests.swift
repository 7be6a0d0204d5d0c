import MPDProtocol
import Testing

/// Filters read as MPD 0.23 reads them (its protocol documentation's forms, the old `TAG VALUE`
/// pairs, `list`'s arguments), decided as MPD decides them, refused with MPD's words, and never a
/// crash whatever the bytes.
@Suite("MPD filter expressions")
struct MPDFilterTests {
    /// MPD 0.23's tag names, as a backend hands them to the parser.
    static let tags = [
        "Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Title", "Track", "Name", "Genre", "Date",
        "OriginalDate", "Composer", "Performer", "Comment", "Disc", "Label", "MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_TRACKID",
    ]
    static let find = MPDFilterParser(tags: tags)
    static let search = MPDFilterParser(tags: tags, foldCase: true)

    struct Song: MPDFilterSubject {
        var tags: [String: [String]] = [:]
        var uri = "Music/Album/01.flac"
        var modified: Int64? = 1_700_000_000
        var added: Int64? = 1_700_000_000
        var audioFormat: MPDAudioFormat? = MPDAudioFormat(sampleRate: 44100, sampleFormat: "16", channels: 2)
        var priority = 0

        func values(ofTag name: String) -> [String] { tags[name] ?? [] }
        var allTagValues: [String] { tags.values.flatMap(\.self) }
    }

    static let song = Song(tags: ["Artist": ["Nina Simone"], "Album": ["Pastel Blues"], "Title": ["Sinnerman"], "Genre": ["Jazz", "Soul"]])

    static func exact(_ op: MPDStringMatch.Operator, _ value: String, negated: Bool = false) throws -> MPDStringMatch {
        try MPDStringMatch(op, value, negated: negated)
    }

    // MARK: Reading

    @Test func readsEveryKindOfCondition() throws {
        let p = Self.find
        #expect(try p.parse(["(Artist == 'Nina')"]) == .tag("Artist", try Self.exact(.equals, "Nina")))
        #expect(try p.parse(["(artist != \"Nina\")"]) == .tag("Artist", try Self.exact(.equals, "Nina", negated: true)))
        #expect(try p.parse(["(Album contains 'Blue')"]) == .tag("Album", try Self.exact(.contains, "Blue")))
        #expect(try p.parse(["(Album CONTAINS 'Blue')"]) == .tag("Album", try Self.exact(.contains, "Blue")))
        #expect(try p.parse(["(Album !contains 'Blue')"]) == .tag("Album", try Self.exact(.contains, "Blue", negated: true)))
        #expect(try p.parse(["(Title starts_with 'Sin')"]) == .tag("Title", try Self.exact(.startsWith, "Sin")))
        #expect(try p.parse(["(Title =~ '^Sin.*n$')"]) == .tag("Title", try Self.exact(.regex, "^Sin.*n$")))
        #expect(try p.parse(["(Title !~ 'x')"]) == .tag("Title", try Self.exact(.regex, "x", negated: true)))
        #expect(try p.parse(["(file == 'Music/a.flac')"]) == .uri(try Self.exact(.equals, "Music/a.flac")))
        #expect(try p.parse(["(filename == 'a')"]) == .uri(try Self.exact(.equals, "a")))
        #expect(try p.parse(["(any == 'x')"]) == .tag(nil, try Self.exact(.equals, "x")))
        #expect(try p.parse(["(base 'Music/Album')"]) == .base("Music/Album"))
        #expect(try p.parse(["(modified-since '1700000000')"]) == .modifiedSince(1_700_000_000))
        #expect(try p.parse(["(modified-since '2023-11-14T22:13:20Z')"]) == .modifiedSince(1_700_000_000))
        #expect(try p.parse(["(added-since '2023-11-14')"]) == .addedSince(1_699_920_000))
        #expect(
            try p.parse(["(AudioFormat == '44100:16:2')"]) == .audioFormat(MPDAudioFormat(sampleRate: 44100, sampleFormat: "16", channels: 2), mask: false))
        #expect(try p.parse(["(AudioFormat =~ '*:24:*')"]) == .audioFormat(MPDAudioFormat(sampleRate: nil, sampleFormat: "24", channels: nil), mask: true))
        #expect(try p.parse(["(prio >= 42)"]) == .priority(atLeast: 42))
        #expect(try p.parse(["(!(Artist == 'x'))"]) == .not(.tag("Artist", try Self.exact(.equals, "x"))))
        #expect(
            try p.parse(["((Artist == 'a') AND (Album == 'b') AND (Title == 'c'))"])
                == .and([.tag("Artist", try Self.exact(.equals, "a")), .tag("Album", try Self.exact(.equals, "b")), .tag("Title", try Self.exact(.equals, "c"))]))
        #expect(try p.parse(["((Artist == 'a'))"]) == .tag("Artist", try Self.exact(.equals, "a")))
        #expect(try p.parse(["(MUSICBRAINZ_TRACKID == 'id')"]) == .tag("MUSICBRAINZ_TRACKID", try Self.exact(.equals, "id")))
        #expect(try p.parse(["(  Artist   ==   'a'  )  "]) == .tag("Artist", try Self.exact(.equals, "a")))
    }

    /// The quoting of the protocol documentation: the filter is itself a quoted argument, so its
    /// own quotes and backslashes arrive escaped twice on the wire.
    @Test func readsTheDocumentationsNestedEscaping() throws {
        let command = try MPDRequestParser.parse("find \"(Artist == \\\"foo\\\\'bar\\\\\\\"\\\")\"")
        #expect(try Self.find.parse(command.arguments) == .tag("Artist", try Self.exact(.equals, "foo'bar\"")))
        #expect(try Self.find.parse(["(Artist == 'it\\'s')"]) == .tag("Artist", try Self.exact(.equals, "it's")))
        #expect(try Self.find.parse(["(Artist == \"a\\\\b\")"]) == .tag("Artist", try Self.exact(.equals, "a\\b")))
        #expect(try Self.find.parse(["(Artist == 'Caf\u{e9} \"q\"')"]) == .tag("Artist", try Self.exact(.equals, "Caf\u{e9} \"q\"")))
    }

    @Test func readsTheOldSyntaxAsPairs() throws {
        #expect(try Self.find.parse(["artist", "Nina"]) == .tag("Artist", try Self.exact(.equals, "Nina")))
        #expect(try Self.find.parse(["ANY", "x"]) == .tag(nil, try Self.exact(.equals, "x")))
        #expect(
            try Self.find.parse(["Artist", "a", "album", "b"]) == .and([.tag("Artist", try Self.exact(.equals, "a")), .tag("Album", try Self.exact(.equals, "b"))]))
        #expect(try Self.find.parse(["base", "Music"]) == .base("Music"))
        #expect(try Self.find.parse(["modified-since", "2024-01-01T00:00:00+01:00"]) == .modifiedSince(1_704_063_600))
        // `search`'s old pairs are substring matches without regard to case, as in MPD 0.20.
        #expect(try Self.search.parse(["file", "album"]) == .uri(try MPDStringMatch(.contains, "album", foldCase: true)))
        // An expression and a pair together are both required.
        #expect(
            try Self.find.parse(["(Artist == 'a')", "Album", "b"])
                == .and([.tag("Artist", try Self.exact(.equals, "a")), .tag("Album", try Self.exact(.equals, "b"))]))
    }

    @Test func readsListsArguments() throws {
        #expect(try MPDListRequest(["album"], parser: Self.find) == MPDListRequest(tag: "Album", filter: nil, groups: []))
        #expect(
            try MPDListRequest(["Album", "Nina"], parser: Self.find)
                == MPDListRequest(tag: "Album", filter: .tag("Artist", try Self.exact(.equals, "Nina")), groups: []))
        #expect(
            try MPDListRequest(["Title", "(Genre == 'Jazz')", "group", "Album", "group", "Artist"], parser: Self.find)
                == MPDListRequest(tag: "Title", filter: .tag("Genre", try Self.exact(.equals, "Jazz")), groups: ["Album", "Artist"]))
        #expect(try MPDListRequest(["file"], parser: Self.find).tag == "file")
        #expect(throws: MPDAck(.argument, "Unknown tag type: Colour")) { try MPDListRequest(["Colour"], parser: Self.find) }
        #expect(throws: MPDAck(.argument, "should be \"Album\" for 3 arguments")) { try MPDListRequest(["Artist", "x"], parser: Self.find) }
        #expect(throws: MPDAck(.argument, "Conflicting group")) { try MPDListRequest(["Album", "group", "Album"], parser: Self.find) }
    }

    // MARK: Refusing

    @Test(arguments: [
        (["(Colour == 'red')"], "Unknown filter type: Colour"),
        (["Colour", "red"], "Unknown filter type"),
        (["Artist"], "Incorrect number of filter arguments"),
        ([], "Incorrect number of filter arguments"),
        (["(Artist == 'a'"], "')' expected"),
        (["(Artist = 'a')"], "'==' or '!=' expected"),
        (["(Artist == a)"], "Quoted string expected"),
        (["(Artist == 'a)"], "Closing quote not found"),
        (["(Artist == 'a\\"], "Closing quote not found"),
        (["(== 'a')"], "Word expected"),
        (["((Artist == 'a') OR (Album == 'b'))"], "'AND' expected"),
        (["(!Artist == 'a')"], "'(' expected"),
        (["(Artist == 'a') x"], "Unparsed garbage after expression"),
        (["(prio >= x)"], "Number expected"),
        (["(prio > 1)"], "'>=' expected"),
        (["(AudioFormat != '44100:16:2')"], "'==' or '=~' expected"),
        (["(AudioFormat == '*:16:2')"], "Failed to parse the sample rate"),
        (["(AudioFormat == '44100')"], "Sample format missing"),
        (["(AudioFormat == '44100:12:2')"], "Invalid sample format: 12"),
        (["(AudioFormat == '44100:16')"], "Channel count missing"),
        (["(AudioFormat == '44100:16:9')"], "Invalid channel count: 9"),
        (["(modified-since 'yesterday')"], "Failed to parse date"),
        (["(modified-since '2024-02-30')"], "Failed to parse date"),
        (["base", "../etc"], "Bad URI"),
        (["(Title =~ '(unclosed')"], "Invalid regular expression"),
        (["(Title =~ '[z-a]')"], "Invalid regular expression"),
        (["(Title =~ '(a+)+$')"], "Regular expression is too complex"),
        (["(Title =~ '(a|aa)*c')"], "Regular expression is too complex"),
        (["(Title =~ '(x(a*))+')"], "Regular expression is too complex"),
        (["(Title =~ 'a*b+c*')"], "Regular expression is too complex"),
        (["(Title =~ 'a?b?c?d?e?f?g?h?i?')"], "Regular expression is too complex"),
    ])
    func refusesWithMPDsWords(_ arguments: [String], _ message: String) {
        #expect(throws: MPDAck(.argument, message)) { try Self.find.parse(arguments) }
    }

    @Test func boundsValuesPatternsAndNesting() {
        let long = String(repeating: "x", count: MPDFilterParser.maximumValueLength + 1)
        #expect(throws: MPDAck(.argument, "Quoted value is too long")) { try Self.find.parse(["(Artist == '\(long)')"]) }
        #expect(throws: Never.self) { try Self.find.parse(["(Artist == '\(long.dropLast())')"]) }
        let pattern = String(repeating: "a", count: 513)
        #expect(throws: MPDAck(.argument, "Regular expression is too long")) { try Self.find.parse(["(Title =~ '\(pattern)')"]) }
        let deep = String(repeating: "(!", count: 40) + "(Artist == 'a')" + String(repeating: ")", count: 40)
        #expect(throws: MPDAck(.argument, "Expression is nested too deeply")) { try Self.find.parse([deep]) }
        let fine = String(repeating: "(!", count: 10) + "(Artist == 'a')" + String(repeating: ")", count: 10)
        #expect(throws: Never.self) { try Self.find.parse([fine]) }
    }

    // MARK: Deciding

    @Test func findComparesExactlyAndSearchWithoutCase() throws {
        let song = Self.song
        #expect(try Self.find.parse(["(Artist == 'Nina Simone')"]).matches(song))
        #expect(try !Self.find.parse(["(Artist == 'nina simone')"]).matches(song))
        #expect(try Self.search.parse(["(Artist == 'nina simone')"]).matches(song))
        #expect(try !Self.search.parse(["(Artist == 'nina')"]).matches(song), "== stays whole in search")
        #expect(try Self.search.parse(["(Artist contains 'SIMONE')"]).matches(song))
        #expect(try !Self.find.parse(["(Artist contains 'SIMONE')"]).matches(song))
        #expect(try Self.find.parse(["(Artist contains 'Simone')"]).matches(song))
        #expect(try Self.search.parse(["artist", "simo"]).matches(song), "old search pairs are substrings")
        #expect(try !Self.find.parse(["artist", "Simo"]).matches(song), "old find pairs are whole")
        #expect(try Self.find.parse(["(Title starts_with 'Sinner')"]).matches(song))
        #expect(try !Self.find.parse(["(Title starts_with 'man')"]).matches(song))
    }

    /// Substrings are found byte by byte in UTF-8, wherever they start: a partial match just
    /// before the real one, the very end, Cyrillic (two bytes a letter), a needle longer than the
    /// value.
    @Test func containsFindsEveryPlaceAByteSequenceCanStart() throws {
        let song = Song(tags: ["Title": ["aaab"], "Artist": ["Группа крови"], "Album": ["x"]])
        for (expression, found) in [
            ("(Title contains 'aab')", true), ("(Title contains 'ab')", true), ("(Title contains 'b')", true), ("(Title contains 'aaab')", true),
            ("(Title contains 'aaaab')", false), ("(Title contains 'ba')", false), ("(Artist contains 'крови')", true),
            ("(Artist contains 'КРОВИ')", false), ("(Album contains 'xx')", false), ("(Album contains 'x')", true),
        ] {
            #expect(try Self.find.parse([expression]).matches(song) == found, "\(expression)")
        }
        #expect(try Self.search.parse(["(Artist contains 'КРОВИ')"]).matches(song), "search folds Cyrillic case too")
        #expect(try Self.search.parse(["(Artist starts_with 'гру')"]).matches(song))
        #expect(try !Self.search.parse(["(Artist starts_with 'руп')"]).matches(song))
    }

    @Test func decidesNegationMultipleValuesAndAny() throws {
        let song = Self.song
        #expect(try Self.find.parse(["(Genre == 'Soul')"]).matches(song), "any of a tag's values")
        #expect(try !Self.find.parse(["(Genre != 'Soul')"]).matches(song), "!= holds when no value matches")
        #expect(try Self.find.parse(["(Genre != 'Rock')"]).matches(song))
        #expect(try Self.find.parse(["(any == 'Sinnerman')"]).matches(song))
        #expect(try !Self.find.parse(["(any == 'Music/Album/01.flac')"]).matches(song), "any is tags, not the URI")
        #expect(try Self.find.parse(["(!(Artist == 'x'))"]).matches(song))
        #expect(try !Self.find.parse(["((Artist == 'Nina Simone') AND (Album == 'x'))"]).matches(song))
        #expect(try Self.find.parse(["((Artist == 'Nina Simone') AND (Album == 'Pastel Blues'))"]).matches(song))
    }

    @Test func anAbsentTagMatchesTheEmptyValueAndFallsBack() throws {
        let song = Self.song
        #expect(try Self.find.parse(["(Date == '')"]).matches(song))
        #expect(try !Self.find.parse(["(Date != '')"]).matches(song))
        #expect(try Self.find.parse(["(Date != '2020')"]).matches(song))
        #expect(try !Self.find.parse(["(Artist == '')"]).matches(song))
        #expect(try Self.find.parse(["(AlbumArtist == 'Nina Simone')"]).matches(song), "AlbumArtist falls back to Artist")
        #expect(try Self.find.parse(["(AlbumArtistSort == 'Nina Simone')"]).matches(song))
        #expect(try Self.find.parse(["(AlbumSort == 'Pastel Blues')"]).matches(song))
        var withAlbumArtist = song
        withAlbumArtist.tags["AlbumArtist"] = ["Various"]
        #expect(try !Self.find.parse(["(AlbumArtist == 'Nina Simone')"]).matches(withAlbumArtist))
    }

    @Test func decidesRegularExpressionsAnywhereInTheValue() throws {
        let song = Self.song
        #expect(try Self.find.parse(["(Title =~ 'nerm')"]).matches(song))
        #expect(try Self.find.parse(["(Title =~ '^S.*n$')"]).matches(song))
        #expect(try !Self.find.parse(["(Title =~ '^s')"]).matches(song))
        #expect(try Self.search.parse(["(Title =~ '^s')"]).matches(song), "search's expressions ignore case")
        #expect(try Self.find.parse(["(Title !~ '^x')"]).matches(song))
        #expect(try Self.find.parse(["(Genre =~ '(Rock|Soul)')"]).matches(song))
        #expect(try Self.find.parse(["(Title =~ '^S[a-z]{2,}?n$|^x*$')"]).matches(song), "classes, counted and lazy repeats")
        // The worst a bounded pattern does: two unbounded repeats over a long value that never
        // matches, searched in the value's first characters only.
        var long = song
        long.tags["Title"] = [String(repeating: "a", count: 10_000)]
        #expect(try !Self.find.parse(["(Title =~ '.*a.*c')"]).matches(long))
        #expect(try Self.find.parse(["(Title =~ '^a{3}')"]).matches(long))
        let matcher = MPDFilterMatcher(try Self.find.parse(["(Title =~ 'man$')"]))
        #expect((0..<100).allSatisfy { _ in matcher.matches(song) })
    }

    @Test func decidesPlacesTimesFormatsAndPriorities() throws {
        var song = Self.song
        #expect(try Self.find.parse(["(file == 'Music/Album/01.flac')"]).matches(song))
        #expect(try Self.search.parse(["(file contains 'album/01')"]).matches(song))
        #expect(try Self.find.parse(["(base 'Music/Album')"]).matches(song))
        #expect(try Self.find.parse(["(base 'Music')"]).matches(song))
        #expect(try !Self.find.parse(["(base 'Music/Alb')"]).matches(song), "a base is whole directories")
        #expect(try Self.find.parse(["(modified-since '1700000000')"]).matches(song))
        #expect(try !Self.find.parse(["(modified-since '1700000001')"]).matches(song))
        #expect(try !Self.find.parse(["(added-since '2030-01-01')"]).matches(song))
        #expect(try Self.find.parse(["(AudioFormat == '44100:16:2')"]).matches(song))
        #expect(try !Self.find.parse(["(AudioFormat == '48000:16:2')"]).matches(song))
        #expect(try Self.find.parse(["(AudioFormat =~ '44100:*:*')"]).matches(song))
        #expect(try Self.find.parse(["(AudioFormat =~ '*:16:*')"]).matches(song))
        #expect(try !Self.find.parse(["(AudioFormat =~ '*:24:*')"]).matches(song))
        #expect(try !Self.find.parse(["(prio >= 1)"]).matches(song))
        song.priority = 5
        #expect(try Self.find.parse(["(prio >= 5)"]).matches(song))
        song.modified = nil
        song.audioFormat = nil
        #expect(try !Self.find.parse(["(modified-since '0')"]).matches(song), "a stream has no modification time")
        #expect(try !Self.find.parse(["(AudioFormat =~ '*:*:*')"]).matches(song))
    }

    // MARK: Round trip and robustness

    @Test(arguments: [
        "(Artist == 'it\\'s \"quoted\" \\\\ here')", "(Album !contains 'x')", "(Title starts_with 'S')", "(Title =~ '^a(b|c)$')",
        "(Title !~ 'x')", "(file == 'Music/a b.flac')", "(any != 'y')", "(base 'Music/A')", "(modified-since '100')",
        "(added-since '2024-01-01')", "(AudioFormat =~ '*:24:2')", "(AudioFormat == '96000:f:2')", "(prio >= 7)",
        "(!((Artist == 'a') AND (!(Genre contains 'b')) AND (Date == '')))",
    ])
    func writesAnExpressionThatReadsBackTheSame(_ text: String) throws {
        for parser in [Self.find, Self.search] {
            let filter = try parser.parse([text])
            #expect(try parser.parse([filter.expression]) == filter, "\(filter.expression)")
        }
    }

    /// Random bytes, and random expressions of every kind with one byte changed or not, either
    /// read or are refused with an ACK: no crash, no hang, and what reads writes back to itself.
    @Test func randomInputEitherReadsOrIsRefused() throws {
        var random = SplitMix64(seed: 0x5EED_F11E)
        var read = 0
        for round in 0..<3000 {
            var text: String
            if round % 3 == 0 {
                let bytes = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                text = "(" + String(decoding: bytes, as: UTF8.self)
            } else {
                text = Self.randomExpression(&random, depth: 0)
                if round % 3 == 2, !text.isEmpty {
                    var bytes = Array(text.utf8)
                    let noise = Array("()'\\\" !=~ aZ0:".utf8)
                    bytes[Int(random.next() % UInt64(bytes.count))] = noise[Int(random.next() % UInt64(noise.count))]
                    text = String(decoding: bytes, as: UTF8.self)
                }
            }
            for parser in [Self.find, Self.search] {
                do {
                    let filter = try parser.parse([text])
                    read += 1
                    _ = filter.matches(Self.song)
                    #expect(try parser.parse([filter.expression]) == filter, "\(text) → \(filter.expression)")
                } catch {
                    #expect(error.code == .argument)
                    #expect(!error.message.isEmpty)
                }
            }
        }
        #expect(read > 1000, "most unchanged random expressions read")
    }

    /// An expression of any kind, its values random text in either quote.
    static func randomExpression(_ random: inout SplitMix64, depth: Int) -> String {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func value() -> String {
            let q = pick(["'", "\""])
            let body = (0..<Int(random.next() % 6)).map { _ in pick(["a", "Z", " ", "'", "\"", "\\", "é", "(", ")", ".", "*"]) }.joined()
            let escaped = body.map { c -> String in c == "'" || c == "\"" || c == "\\" ? "\\\(c)" : String(c) }.joined()
            return q + escaped + q
        }
        switch random.next() % (depth < 3 ? 9 : 6) {
        case 0: return "(\(pick(["Artist", "album", "ANY", "file", "Genre"])) \(pick(["==", "!=", "contains", "!contains", "starts_with"])) \(value()))"
        case 1: return "(Title \(pick(["=~", "!~"])) \(pick(["'^a'", "'b$'", "'(a|b)+'", "'[0-9]{2}'", "'.'"])))"
        case 2: return "(base \(value()))"
        case 3: return "(\(pick(["modified-since", "added-since"])) '\(pick(["0", "1700000000", "2024-01-31", "2024-01-31T10:00:00Z"]))')"
        case 4: return "(AudioFormat \(pick(["==", "=~"])) '\(pick(["44100:16:2", "*:24:*", "48000:f:1", "96000:dsd:*"]))')"
        case 5: return "(prio >= \(random.next() % 300))"
        case 6: return "(!\(randomExpression(&random, depth: depth + 1)))"
        default:
            let count = Int(random.next() % 3) + 1
            return "(" + (0..<count).map { _ in randomExpression(&random, depth: depth + 1) }.joined(separator: " AND ") + ")"
        }
    }
}

/// A seeded generator, so a failing input is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
