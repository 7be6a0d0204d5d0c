/// Snapcast's stream properties (`Plugin.Stream.Player.Properties`, the answer to
/// `GetProperties`) from what MPD says, with the keys and value types MPRIS and Snapcast use.
public enum StreamProperties {
    /// The properties of `snapshot`. Metadata carries title, artist (a list), album, the station
    /// name, the URL and the duration as far as MPD gives them; `canSeek` only when the song has
    /// a duration (a live stream has none).
    public static func of(_ snapshot: PlayerSnapshot) -> JSONValue {
        let status = snapshot.status
        var fields: [String: JSONValue] = [:]
        fields["playbackStatus"] = .string(["play": "playing", "pause": "paused"][snapshot.state] ?? "stopped")
        let repeats = status["repeat"] == "1"
        let single = status["single"] == "1"
        fields["loopStatus"] = .string(repeats ? (single ? "track" : "playlist") : "none")
        fields["shuffle"] = .bool(status["random"] == "1")
        if let volume = status["volume"].flatMap(Int.init), volume >= 0 {
            fields["volume"] = .number(Double(volume))
            fields["mute"] = .bool(volume == 0)
        }
        let duration = (status["duration"] ?? snapshot.song["duration"]?.first).flatMap(Double.init)
        if let elapsed = status["elapsed"].flatMap(Double.init) {
            fields["position"] = .number(elapsed)
        } else if let time = status["time"]?.split(separator: ":").first.flatMap({ Double($0) }) {
            fields["position"] = .number(time)
        }
        let hasSong = !snapshot.song.isEmpty
        fields["canGoNext"] = .bool(hasSong)
        fields["canGoPrevious"] = .bool(hasSong)
        fields["canPlay"] = .bool(hasSong || status["playlistlength"].flatMap(Int.init).map { $0 > 0 } == true)
        fields["canPause"] = .bool(hasSong)
        fields["canSeek"] = .bool(hasSong && duration != nil)
        fields["canControl"] = .bool(true)
        if hasSong { fields["metadata"] = metadata(snapshot.song, duration: duration) }
        return .object(fields)
    }

    /// The tags MPD's `currentsong` gives, named as Snapcast's metadata names them.
    static func metadata(_ song: [String: [String]], duration: Double?) -> JSONValue {
        var meta: [String: JSONValue] = [:]
        let single: [(String, String)] = [
            ("title", "title"), ("album", "album"), ("name", "name"), ("file", "url"), ("id", "trackId"), ("date", "contentCreated"),
        ]
        for (tag, key) in single {
            if let value = song[tag]?.first { meta[key] = .string(value) }
        }
        let lists: [(String, String)] = [("artist", "artist"), ("albumartist", "albumArtist"), ("genre", "genre"), ("composer", "composer")]
        for (tag, key) in lists {
            if let values = song[tag], !values.isEmpty { meta[key] = .array(values.map { .string($0) }) }
        }
        if let track = song["track"]?.first.flatMap({ Int($0.split(separator: "/").first ?? "") }) { meta["trackNumber"] = .number(Double(track)) }
        if let duration { meta["duration"] = .number(duration) }
        // A stream that names no title: the station's name is what there is to show.
        if meta["title"] == nil, let name = song["name"]?.first { meta["title"] = .string(name) }
        return .object(meta)
    }
}
