import Foundation
import Library
import MPDProtocol
import PlayerCore

/// One song of the music index as MPD's database commands show it: under the `Music` folder of
/// Tonearm's catalog, with its tags, `Last-Modified` and `Format`, as mpd prints a song.
///
/// A class (immutable, so still a value to its users): a `find` or a sort over the whole database
/// passes each song around many times, and a reference costs one retain where a copy of the record
/// retained every string in it.
package final class MPDDatabaseSong: Sendable, MPDFilterSubject {
    package let record: MusicSongRecord
    /// The record's tag values, kept apart (the same storage, shared): a filter reads them once
    /// per song and command, and reaching them through the record copied the record's fields
    /// each time (a third of a `find`'s time over 10,000 songs).
    private let tagValues: [SongTag: [String]]

    package init(_ record: MusicSongRecord) {
        self.record = record
        self.tagValues = record.tags.values
    }

    /// The catalog's folder the music directory appears as.
    package static let root = MPDCatalog.Root.music.rawValue

    package var uri: String { "\(Self.root)/\(record.path)" }

    /// A tag's values, or those of the tag mpd falls back on when the song lacks it (an album
    /// artist is the artist, a sort name the name), so `list AlbumArtist` and a filter on it find
    /// songs tagged only with an artist, as in mpd.
    package func values(ofTag name: String) -> [String] {
        guard let tag = SongTag(mpdName: name) else { return [] }
        if let values = tagValues[tag] { return values }
        for candidate in Self.fallbacks(of: tag) {
            if let values = tagValues[candidate] { return values }
        }
        return []
    }

    /// mpd's `ApplyTagFallback`, in its order.
    static func fallbacks(of tag: SongTag) -> [SongTag] {
        switch tag {
        case .albumArtistSort: [.albumArtist, .artistSort, .artist]
        case .albumArtist, .artistSort: [.artist]
        case .albumSort: [.album]
        default: []
        }
    }

    package var allTagValues: [String] { tagValues.values.flatMap(\.self) }
    package var modified: Int64? { Int64(record.stamp.modified.rounded(.down)) }
    package var added: Int64? { Int64(record.added.timeIntervalSince1970.rounded(.down)) }
    package var priority: Int { 0 }

    package var audioFormat: MPDAudioFormat? {
        let audio = record.tags.audio
        guard let rate = audio.sampleRate, let channels = audio.channels else { return nil }
        return MPDAudioFormat(sampleRate: rate, sampleFormat: audio.bitsPerSample.flatMap { $0 > 0 ? String($0) : nil } ?? "f", channels: channels)
    }

    /// The song's lines: `file`, `Last-Modified`, `Format`, the tags the connection wants (all
    /// when nil), `Time` and `duration`. A file that could not be read has only its name and date,
    /// as mpd lists a file its decoders could not scan.
    package func fields(tags wanted: Set<SongTag>? = nil) -> MPDResponse {
        var r = MPDResponse()
        r.append("file", uri)
        if let part = record.tags.part { r.append("Range", Self.range(part)) }
        r.append("Last-Modified", Self.timestamp(record.stamp.modified))
        if let format = record.tags.audio.mpdFormat { r.append("Format", format) }
        for tag in SongTag.allCases where wanted?.contains(tag) ?? true {
            for value in record.tags[all: tag] { r.append(tag.rawValue, value) }
        }
        if let duration = record.tags.audio.duration {
            r.append("Time", String(Int(duration.rounded())))
            r.append("duration", String(format: "%.3f", duration))
        }
        return r
    }

    /// A cue track's place in its image as mpd prints `Range`: seconds with milliseconds, from
    /// its start to its end, nothing after the dash for the last track (to the end of the image).
    /// mpd keeps a sheet's times in whole milliseconds (frames × 1000 / 75, cut), so these are
    /// cut the same way.
    package static func range(_ part: SongPart) -> String {
        func seconds(_ frames: Int) -> String {
            let milliseconds = frames * 1000 / SongPart.framesPerSecond
            return String(format: "%d.%03d", milliseconds / 1000, milliseconds % 1000)
        }
        return seconds(part.startFrame) + "-" + (part.endFrame.map(seconds) ?? "")
    }

    /// ISO 8601 in UTC to the second, as mpd prints `Last-Modified`.
    package static func timestamp(_ seconds: Double) -> String { MPDTimestamp.format(seconds) }
}
