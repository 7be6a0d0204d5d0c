import Testing
@testable import Services

@Suite struct MetadataStreamTitleTests {
    @Test(arguments: [
        ("Miles Davis - So What", "Miles Davis", "So What"),
        ("Кино – Группа крови", "Кино", "Группа крови"),
        ("Artist — Title", "Artist", "Title"),
        ("   Artist  -   Title   ", "Artist", "Title"),
        ("Artist\t-\tTitle", "Artist", "Title"),
        ("Pink Floyd - Time - 2011 Remaster", "Pink Floyd", "Time - 2011 Remaster"),
    ])
    func splitsAtTheFirstSeparator(raw: String, artist: String, title: String) {
        let split = StreamTitle(parsing: raw)
        #expect(split.artist == artist)
        #expect(split.title == title)
    }

    @Test(arguments: ["Jay-Z", "AC-DC", "Just a title", "Artist -Title", "Artist- Title"])
    func withoutASpacedSeparatorTheWholeTextIsTheTitle(raw: String) {
        let split = StreamTitle(parsing: raw)
        #expect(split.artist == nil)
        #expect(split.title == raw)
    }

    @Test func anEmptySideLeavesOnlyATitle() {
        #expect(StreamTitle(parsing: "Artist - ") == StreamTitle(title: "Artist", artist: nil))
        #expect(StreamTitle(parsing: " - Title") == StreamTitle(title: "Title", artist: nil))
        #expect(StreamTitle(parsing: " - ") == StreamTitle(title: nil, artist: nil))
        #expect(StreamTitle(parsing: "-") == StreamTitle(title: nil, artist: nil))
        #expect(StreamTitle(parsing: "- Title -") == StreamTitle(title: "Title -", artist: nil))
    }

    @Test func blankOrAbsentIsNoTitle() {
        #expect(StreamTitle(parsing: nil) == StreamTitle(title: nil, artist: nil))
        #expect(StreamTitle(parsing: "   \t ") == StreamTitle(title: nil, artist: nil))
        #expect(StreamTitle(parsing: "\u{1B}\u{202E}") == StreamTitle(title: nil, artist: nil))
    }

    @Test func splittingSanitises() {
        let split = StreamTitle(parsing: "Evil\u{1B}[31m\u{202E} - Song\u{7F}")
        #expect(split.artist == "Evil[31m")
        #expect(split.title == "Song")
    }

    @Test func combinedRejoinsArtistAndTitle() {
        #expect(StreamTitle(parsing: "A  -  B").combined == "A - B")
        #expect(StreamTitle(parsing: "Only").combined == "Only")
        #expect(StreamTitle(parsing: nil).combined == nil)
    }
}

@Suite struct MetadataStationIdentityTests {
    @Test func matchesNamesToleratingCaseSpacesAndPunctuation() {
        let identity = StationIdentity(["OtonFM", nil, "Radio Paradise"])
        #expect(identity.matches("OtonFM"))
        #expect(identity.matches("OTON FM"))
        #expect(identity.matches("  oton-fm! "))
        #expect(identity.matches("radio paradise"))
    }

    @Test func aTrackMentioningTheStationIsNotTheIdentity() {
        let identity = StationIdentity(["OtonFM"])
        #expect(!identity.matches("OtonFM Hits - Song"))
        #expect(!identity.matches("Artist - Title"))
        #expect(!identity.matches(nil))
    }

    @Test func blankIdentitiesNeverMatch() {
        let identity = StationIdentity(["", "  ", "---", nil])
        #expect(identity.isEmpty)
        #expect(!identity.matches(""))
        #expect(!identity.matches("-"))
        #expect(!identity.matches(nil))
    }
}

@Suite struct MetadataTitleMatchTests {
    let icy = StreamTitle(parsing: "Miles Davis - So What")

    @Test(arguments: ["Miles Davis - So What", "miles davis – so what", "MILES DAVIS: SO WHAT!", "  Miles  Davis -So What ", "So What"])
    func tolerantMatches(status: String) {
        #expect(TitleMatch.matches(statusTitle: status, icy: icy))
    }

    @Test(arguments: ["John Coltrane - Naima", "Miles Davis", "So What (Live)", "", "!!!"])
    func otherTracksDoNotMatch(status: String) {
        #expect(!TitleMatch.matches(statusTitle: status, icy: icy))
    }

    @Test func nothingMatchesAnAbsentTitle() {
        #expect(!TitleMatch.matches(statusTitle: nil, icy: icy))
        #expect(!TitleMatch.matches(statusTitle: "", icy: StreamTitle(parsing: nil)))
    }
}
