import Foundation
import PlayerCore
import Testing

@testable import Library

/// The sticker store: values set, replaced, listed by name, deleted one or all, found under a
/// folder with text comparisons as mpd's sticker database makes them; kept through a rescan, a
/// song leaving the index and the library reopened; refused above its bounds with a typed error
/// and nothing written.
@Suite("Sticker store")
struct StickerStoreTests {
    static func reading(_ path: String, modified: Double = 1) -> MusicFileReading {
        MusicFileReading(path: path, stamp: MusicFileStamp(modified: modified, size: 10), result: .success(SongTags(values: [.title: [path]])))
    }

    @Test func aStickerIsSetReplacedListedByNameAndDeleted() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        #expect(try store.sticker(.song, uri: "a/1.flac", name: "rating") == nil)
        try store.setSticker(.song, uri: "a/1.flac", name: "rating", value: "3")
        try store.setSticker(.song, uri: "a/1.flac", name: "playcount", value: "12")
        try store.setSticker(.song, uri: "a/1.flac", name: "rating", value: "5")
        try store.setSticker(.song, uri: "a/2.flac", name: "rating", value: "1")
        // An empty value is a value; names may hold `=` and spaces, as in mpd.
        try store.setSticker(.song, uri: "a/1.flac", name: "a=b c", value: "")
        #expect(try store.sticker(.song, uri: "a/1.flac", name: "rating") == "5")
        #expect(try store.stickers(.song, uri: "a/1.flac") == [
            Sticker(name: "a=b c", value: ""), Sticker(name: "playcount", value: "12"), Sticker(name: "rating", value: "5"),
        ])
        #expect(try store.deleteStickers(.song, uri: "a/1.flac", name: "nothing") == 0)
        #expect(try store.deleteStickers(.song, uri: "a/1.flac", name: "playcount") == 1)
        #expect(try store.sticker(.song, uri: "a/1.flac", name: "playcount") == nil)
        #expect(try store.deleteStickers(.song, uri: "a/1.flac") == 2)
        #expect(try store.stickers(.song, uri: "a/1.flac").isEmpty)
        // Another song's stickers are its own.
        #expect(try store.stickers(.song, uri: "a/2.flac") == [Sticker(name: "rating", value: "1")])
    }

    @Test func findKeepsSongsUnderAFolderAndComparesValuesAsText() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        for (uri, value) in [("Aurora/1.flac", "5"), ("Aurora/B/2.flac", "3"), ("AuroraX/3.flac", "4"), ("Кино/1.flac", "10"), ("loose.ogg", "7")] {
            try store.setSticker(.song, uri: uri, name: "rating", value: value)
        }
        try store.setSticker(.song, uri: "Aurora/1.flac", name: "other", value: "1")
        func uris(_ directory: String, _ comparison: StickerComparison = .exists) throws -> [String] {
            try store.findStickers(.song, under: directory, name: "rating", comparison).map(\.uri)
        }
        #expect(try store.findStickers(.song, under: "", name: "rating") == [
            StickerMatch(uri: "Aurora/1.flac", value: "5"), StickerMatch(uri: "Aurora/B/2.flac", value: "3"),
            StickerMatch(uri: "AuroraX/3.flac", value: "4"), StickerMatch(uri: "loose.ogg", value: "7"), StickerMatch(uri: "Кино/1.flac", value: "10"),
        ])
        // A folder is a whole name: "Aurora" holds neither "AuroraX" nor a song named "Aurora".
        #expect(try uris("Aurora") == ["Aurora/1.flac", "Aurora/B/2.flac"])
        #expect(try uris("Aurora/B") == ["Aurora/B/2.flac"])
        #expect(try uris("Aurora/1.flac").isEmpty)
        #expect(try uris("Кино") == ["Кино/1.flac"])
        #expect(try uris("Кин").isEmpty)
        // Text order, byte by byte: "10" sorts before "5".
        #expect(try uris("", .equals("5")) == ["Aurora/1.flac"])
        #expect(try uris("", .lessThan("5")) == ["Aurora/B/2.flac", "AuroraX/3.flac", "Кино/1.flac"])
        #expect(try uris("", .greaterThan("5")) == ["loose.ogg"])
        #expect(try uris("Aurora", .greaterThan("3")) == ["Aurora/1.flac"])
        #expect(try store.findStickers(.song, under: "", name: "missing").isEmpty)
    }

    @Test func stickersSurviveARescanASongLeavingTheIndexAndReopening() throws {
        let temporary = try TemporaryDirectory()
        do {
            let store = try LibraryStore.open(directory: temporary.url)
            try store.saveMusic([Self.reading("a/1.flac"), Self.reading("a/2.flac")])
            try store.setSticker(.song, uri: "a/1.flac", name: "rating", value: "5")
            try store.setSticker(.song, uri: "a/2.flac", name: "rating", value: "2")
            // The file changed and was read again; the other left the music directory.
            try store.saveMusic([Self.reading("a/1.flac", modified: 2)], removing: ["a/2.flac"])
            #expect(try store.musicSongs().map(\.path) == ["a/1.flac"])
        }
        let reopened = try LibraryStore.open(directory: temporary.url)
        #expect(try reopened.sticker(.song, uri: "a/1.flac", name: "rating") == "5")
        #expect(try reopened.sticker(.song, uri: "a/2.flac", name: "rating") == "2")
    }

    @Test func boundsAreRefusedWithATypedErrorAndNothingWritten() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let uri = "a/1.flac"
        func refusal(_ name: String, _ value: String) -> StickerError? {
            do {
                try store.setSticker(.song, uri: uri, name: name, value: value)
                return nil
            } catch { return error }
        }
        #expect(refusal("", "1") == .emptyName)
        #expect(refusal("line\nbreak", "1") == .controlCharacter)
        #expect(refusal("rating", "1\r\n") == .controlCharacter)
        #expect(refusal("nul\u{0}", "1") == .controlCharacter)
        let longestName = String(repeating: "n", count: StickerLimits.maxNameBytes)
        #expect(refusal(longestName + "n", "1") == .nameTooLong(limit: StickerLimits.maxNameBytes))
        // Bytes, not characters: a Cyrillic name of half as many letters is as long.
        #expect(refusal(String(repeating: "я", count: StickerLimits.maxNameBytes / 2 + 1), "1") == .nameTooLong(limit: StickerLimits.maxNameBytes))
        #expect(refusal("rating", String(repeating: "v", count: StickerLimits.maxValueBytes + 1)) == .valueTooLong(limit: StickerLimits.maxValueBytes))
        #expect(try store.stickers(.song, uri: uri).isEmpty)
        // At the bounds it is taken.
        #expect(refusal(longestName, String(repeating: "v", count: StickerLimits.maxValueBytes)) == nil)
        for index in 1..<StickerLimits.maxPerObject { try store.setSticker(.song, uri: uri, name: "n\(index)", value: "\(index)") }
        #expect(try store.stickers(.song, uri: uri).count == StickerLimits.maxPerObject)
        #expect(refusal("one-too-many", "1") == .tooManyStickers(limit: StickerLimits.maxPerObject))
        #expect(try store.sticker(.song, uri: uri, name: "one-too-many") == nil)
        // Replacing a value at the limit is allowed, and another song has its own count.
        #expect(refusal("n1", "changed") == nil)
        #expect(try store.sticker(.song, uri: uri, name: "n1") == "changed")
        try store.setSticker(.song, uri: "a/2.flac", name: "rating", value: "1")
    }
}
