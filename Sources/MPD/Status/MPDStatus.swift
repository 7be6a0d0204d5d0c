import Foundation
import MPDProtocol
import PlayerCore
import Presentation

/// `status` as MPD clients read it, and Tonearm's own keys beside it. MPD knows only play, pause
/// and stop; the states it has no word for are not hidden but told in `tonearm_*` keys, which
/// clients ignore and scripts can read: the state's own name, a reconnect's attempt and countdown,
/// the buffer's fill, a crossfade's progress, what kind of retry an error allows, and a session's
/// layers (its clock, its bed, its next bell).
package enum MPDStatus {
    /// MPD's three states for Tonearm's: everything on its way to sound or sounding is `play`
    /// (a reconnect included: the player is still trying to play), a pause is `pause`, and no
    /// song (idle, finished, failed) is `stop`.
    package static func mpdState(_ state: PlayerState) -> String {
        switch state.name {
        case .paused, .crossfadePaused: "pause"
        case .idle, .finished, .failed: "stop"
        case .preparing, .preparingCrossfade, .playing, .buffering, .seeking, .crossfading, .fadingOut, .reconnecting: "play"
        }
    }

    /// `status` in MPD 0.23's order (its `handle_status`), Tonearm's own keys after it.
    package static func response(queue: MPDQueue, player: MPDPlayerView, language: Language) -> MPDResponse {
        var r = MPDResponse()
        let volume = player.volume.percent
        r.append("volume", String(min(100, volume)))
        r.append("repeat", queue.options.repeat ? "1" : "0")
        r.append("random", queue.options.random ? "1" : "0")
        r.append("single", queue.options.single.rawValue)
        r.append("consume", queue.options.consume.rawValue)
        // Tonearm has one partition, MPD's default one.
        r.append("partition", "default")
        r.append("playlist", String(queue.version))
        r.append("playlistlength", String(queue.count))
        r.append("mixrampdb", number(queue.options.mixRampDB))
        let state = mpdState(player.state)
        r.append("state", state)
        if queue.options.crossfade > 0 { r.append("xfade", String(queue.options.crossfade)) }
        if queue.options.mixRampDelay > 0 { r.append("mixrampdelay", number(queue.options.mixRampDelay)) }
        if let position = queue.currentPosition, let id = queue.currentID {
            r.append("song", String(position))
            r.append("songid", String(id))
        }
        if state != "stop" {
            let elapsed = max(0, player.position)
            // Until the player reports the position, the song's own duration is the best known.
            let duration = player.duration ?? queue.currentID.flatMap { try? queue.song(id: $0).entry.duration }
            r.append("time", "\(Int(elapsed.rounded())):\(Int((duration ?? 0).rounded()))")
            r.append("elapsed", String(format: "%.3f", elapsed))
            if let duration { r.append("duration", String(format: "%.3f", duration)) }
            r.append("audio", "48000:f:2")
        }
        if let error = player.error {
            r.append("error", "\(error.title(in: language)): \(error.message(in: language))")
        }
        // The song after this one as MPD names it: under `single` too (a `next` goes there).
        if let next = queue.nextSongForStatus, let nextPosition = queue.position(ofID: next) {
            r.append("nextsong", String(nextPosition))
            r.append("nextsongid", String(next))
        }
        r.append(contentsOf: tonearmFields(player))
        return r
    }

    /// A float as MPD's `fmt` prints it with `{}`: the shortest form that reads back the same,
    /// without a trailing `.0` (`0`, `-17`, `2.5`).
    package static func number(_ value: Float) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// The keys only Tonearm sends.
    package static func tonearmFields(_ player: MPDPlayerView) -> MPDResponse {
        var r = MPDResponse()
        r.append("tonearm_state", player.state.name.rawValue)
        switch player.state {
        case .reconnecting(_, let attempt, let maxAttempts, let nextRetryAt, _):
            r.append("tonearm_reconnect_attempt", String(attempt))
            r.append("tonearm_reconnect_max", String(maxAttempts))
            if let nextRetryAt {
                let seconds = max(0, nextRetryAt.seconds - player.stateTime.seconds)
                r.append("tonearm_reconnect_in", String(format: "%.1f", seconds))
            }
        case .buffering(_, let progress, let reason):
            r.append("tonearm_buffer", String(Int((progress * 100).rounded())))
            r.append("tonearm_buffering", reason.rawValue)
        case .crossfading(_, _, let progress, _), .crossfadePaused(_, _, let progress, _, _):
            r.append("tonearm_crossfade", String(format: "%.2f", progress))
        default:
            break
        }
        if player.volume.percent > 100 { r.append("tonearm_volume", String(player.volume.percent)) }
        if let layers = player.layers { r.append(contentsOf: layerFields(layers)) }
        if let error = player.error {
            r.append("tonearm_error", error.errorType)
            r.append("tonearm_error_retry", error.disposition.rawValue)
        }
        return r
    }

    /// A session's layers: seconds on its clock and left to its end, the bed's phase and level,
    /// the next bell's session time and kind, and the strikes rung so far.
    static func layerFields(_ layers: SessionLayersStatus) -> MPDResponse {
        var r = MPDResponse()
        r.append("tonearm_session_elapsed", String(format: "%.1f", layers.elapsed))
        if let remaining = layers.remaining { r.append("tonearm_session_remaining", String(format: "%.1f", remaining)) }
        if let bed = layers.bed {
            r.append("tonearm_bed", bed.phase.rawValue)
            r.append("tonearm_bed_level", String(format: "%.2f", bed.level))
        }
        if let bell = layers.nextBell {
            r.append("tonearm_next_bell", String(format: "%.1f", bell.at))
            r.append("tonearm_next_bell_kind", bell.kind.rawValue)
        }
        r.append("tonearm_bells_rung", String(layers.strikesRung))
        return r
    }

    /// The tags songs carry.
    package static let tagTypes = MPDTagNames.ordered(SongTag.allCases.map(\.rawValue) + ["Name"])

    /// A song's fields as `currentsong`, `playlistinfo` and `lsinfo` tell them; `position` and
    /// `id` are left out for a song that is not in the queue.
    package static func songFields(_ entry: MPDEntry, position: Int? = nil, id: Int? = nil, live: NowPlayingMetadata? = nil) -> MPDResponse {
        var r = MPDResponse()
        r.append("file", entry.uri)
        if let part = entry.fileTags?.part { r.append("Range", MPDDatabaseSong.range(part)) }
        if let modified = entry.modified { r.append("Last-Modified", MPDDatabaseSong.timestamp(modified)) }
        if let tags = entry.fileTags {
            // A music file: every tag it has, as mpd tells a song of its database.
            if let format = tags.audio.mpdFormat { r.append("Format", format) }
            for tag in SongTag.allCases {
                for value in tags[all: tag] { r.append(tag.rawValue, value) }
            }
            if tags[.title] == nil, let title = entry.title { r.append("Title", title) }
        } else {
            if let artist = live?.artist ?? entry.artist { r.append("Artist", artist) }
            if let album = entry.album { r.append("Album", album) }
            if let title = live?.title ?? entry.title { r.append("Title", title) }
        }
        if let name = entry.name { r.append("Name", name) }
        if let duration = entry.duration {
            r.append("Time", String(Int(duration.rounded())))
            r.append("duration", String(format: "%.3f", duration))
        }
        if let position { r.append("Pos", String(position)) }
        if let id { r.append("Id", String(id)) }
        return r
    }
}
