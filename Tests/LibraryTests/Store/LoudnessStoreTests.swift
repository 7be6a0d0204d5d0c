import Foundation
import Library
import PlayerCore
import Testing

/// Measured loudness kept per source, so a track is measured once.
@Suite("Loudness in the store")
struct LoudnessStoreTests {
    @Test func aMeasurementIsKeptReplacedAndSurvivesReopening() throws {
        let temporary = try TemporaryDirectory()
        var store = try LibraryStore.open(directory: temporary.url)
        #expect(try store.loudness(sourceKey: "file:/a.flac:10:1") == nil)
        try store.keepLoudness(Loudness(integrated: -21.5, source: .measured)!, sourceKey: "file:/a.flac:10:1")
        try store.keepLoudness(Loudness(integrated: -14, source: .heard)!, sourceKey: "https://cdn.example/ep1.mp3")
        try store.keepLoudness(Loudness(integrated: -20, source: .replayGainTag)!, sourceKey: "file:/a.flac:10:1")
        store = try LibraryStore.open(directory: temporary.url)
        #expect(try store.loudness(sourceKey: "file:/a.flac:10:1") == Loudness(integrated: -20, source: .replayGainTag))
        #expect(try store.loudness(sourceKey: "https://cdn.example/ep1.mp3") == Loudness(integrated: -14, source: .heard))
        #expect(try store.loudness(sourceKey: "file:/a.flac:10:2") == nil, "another version of the file is not the same source")
    }

    /// The table stays bounded: past the limit the oldest measurements go first.
    @Test func theOldestGoPastTheLimit() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let loudness = Loudness(integrated: -18, source: .measured)!
        for (index, key) in ["a", "b", "c", "d"].enumerated() {
            try store.keepLoudness(loudness, sourceKey: key, at: Date(timeIntervalSince1970: Double(index)), limit: 3)
        }
        #expect(try store.loudness(sourceKey: "a") == nil)
        #expect(try ["b", "c", "d"].allSatisfy { try store.loudness(sourceKey: $0) != nil })
    }
}
