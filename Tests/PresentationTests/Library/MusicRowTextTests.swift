import PlayerCore
import Testing

@testable import Presentation

/// The Music tab's rows and the index's progress as text, in both languages.
@Suite("Music rows and index progress")
struct MusicRowTextTests {
    @Test func songsAreNumberedAlignedAndTimed() {
        #expect(MusicRowText.song(track: 3, title: "Harbour", duration: 185) == LibraryRow(title: " 3  Harbour", detail: "3:05"))
        #expect(MusicRowText.song(track: 12, title: "Tide", duration: 3_725).title == "12  Tide")
        #expect(MusicRowText.song(track: 12, title: "Tide", duration: 3_725).detail == "1:02:05")
        #expect(MusicRowText.song(track: nil, title: "Loose", duration: nil) == LibraryRow(title: "    Loose", detail: nil))
    }

    @Test func albumsShowTheirYearAndFoundSongsWhereTheyAreFrom() {
        #expect(MusicRowText.album(title: "Night Ferry", year: 2019) == LibraryRow(title: "Night Ferry", detail: "2019"))
        #expect(MusicRowText.album(title: "Untitled", year: nil).detail == nil)
        #expect(MusicRowText.found(title: "Группа крови", artist: "Кино", album: "Группа крови", duration: 283).detail == "Кино · Группа крови  4:43")
        #expect(MusicRowText.found(title: "Alone", artist: nil, album: nil, duration: nil).detail == nil)
    }

    /// A tag's newline or escape never reaches a row.
    @Test func rowsAreOneCleanLine() {
        let row = MusicRowText.found(title: "Evil\u{1B}[2J\nTitle", artist: "A\u{202E}B", album: nil, duration: nil)
        #expect(!row.title.contains("\u{1B}") && !row.title.contains("\n"))
        #expect(row.detail?.unicodeScalars.contains("\u{202E}") == false)
    }

    @Test(arguments: Language.allCases)
    func progressSaysScanningThenFilesReadOfThoseToRead(language: Language) {
        let scanning = MusicIndexProgress.scanning.text(in: language)
        #expect(!scanning.isEmpty && MusicIndexProgress.scanning.fraction == nil)
        let reading = MusicIndexProgress(read: 100, total: 450).text(in: language)
        #expect(reading.contains("100") && reading.contains("450"))
        #expect(MusicIndexProgress(read: 0, total: 0).fraction == 1)
        #expect(MusicIndexProgress(read: 225, total: 450).fraction == 0.5)
    }
}
