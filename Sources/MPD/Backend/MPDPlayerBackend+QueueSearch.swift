import Foundation
import MPDProtocol
import PlayerCore

/// `playlistfind` and `playlistsearch`: the queue's songs a filter matches (exactly, or as
/// `search` matches: case folded, substrings), told as `playlistinfo` tells them. A song is
/// matched by what `playlistinfo` says of it (a client's tag edits, a stream's latest title), the
/// tags mpd's queue holds, whatever tags the asking connection turned off.
extension MPDPlayerBackend {
    static let queueSearchCommands: [MPDCommandEntry] = [
        MPDCommandEntry("playlistfind", 1..., .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.queueSongs(matching: a, foldCase: false)
        },
        MPDCommandEntry("playlistsearch", 1..., .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.queueSongs(matching: a, foldCase: true)
        },
    ]

    private func queueSongs(matching a: MPDArguments, foldCase: Bool) throws(MPDAck) -> MPDResponse {
        let matcher = MPDFilterMatcher(try Self.filterParser(foldCase: foldCase).parse(a.command.arguments))
        var r = MPDResponse()
        for position in queue.songs.indices {
            let song = queue.songs[position]
            let subject = MPDQueuedSong(fields: songFields(at: position), entry: song.entry, priority: song.priority)
            if matcher.matches(subject) { r.append(contentsOf: songs(position..<position + 1, for: a.command.client)) }
        }
        return r
    }
}

/// A song of the queue as a filter sees it: the tag lines `playlistinfo` prints of it.
struct MPDQueuedSong: MPDFilterSubject {
    let fields: [MPDResponse.Field]
    let entry: MPDEntry
    let priority: Int

    func values(ofTag name: String) -> [String] {
        let values = fields.filter { $0.key == name }.map(\.value)
        if !values.isEmpty { return values }
        // An album artist is the artist, a sort name the name, as in mpd's database.
        guard let tag = SongTag(mpdName: name) else { return [] }
        for candidate in MPDDatabaseSong.fallbacks(of: tag) {
            let values = fields.filter { $0.key == candidate.rawValue }.map(\.value)
            if !values.isEmpty { return values }
        }
        return []
    }

    var allTagValues: [String] {
        fields.filter { MPDTagNames.canonical($0.key) == $0.key }.map(\.value)
    }

    var uri: String { entry.uri }
    var modified: Int64? { entry.modified.map { Int64($0.rounded(.down)) } }
    var added: Int64? { nil }

    var audioFormat: MPDAudioFormat? {
        guard let audio = entry.items.first?.track.tags?.audio, let rate = audio.sampleRate, let channels = audio.channels else { return nil }
        return MPDAudioFormat(sampleRate: rate, sampleFormat: audio.bitsPerSample.flatMap { $0 > 0 ? String($0) : nil } ?? "f", channels: channels)
    }
}
