import MPDProtocol

/// The edits MPD makes to a stored playlist's songs, as pure functions of the list (the store
/// reads, applies and writes). Positions out of the list are MPD's "Bad song index".
package enum MPDPlaylistEdit {
    /// The most songs one stored playlist holds (MPD's `max_playlist_length`).
    package static let maximumLength = 16384

    /// `playlistadd NAME URI [POSITION]`: the songs inserted at `position` (the end when nil).
    package static func insert(_ uris: [String], into songs: [String], at position: Int?) throws(MPDAck) -> [String] {
        let at = position ?? songs.count
        guard (0...songs.count).contains(at) else { throw MPDAck(.argument, "Bad position") }
        guard songs.count + uris.count <= maximumLength else { throw MPDAck(.playlistMax, "Stored playlist is too large") }
        var result = songs
        result.insert(contentsOf: uris, at: at)
        return result
    }

    /// `playlistdelete NAME POS|START:END`: a range's end past the list is its end, as mpd reads it.
    package static func delete(_ range: Range<Int>, from songs: [String]) throws(MPDAck) -> [String] {
        guard range.lowerBound >= 0, range.lowerBound < songs.count else { throw MPDAck(.argument, "Bad song index") }
        var result = songs
        result.removeSubrange(range.lowerBound..<min(range.upperBound, songs.count))
        return result
    }

    /// `playlistmove NAME FROM TO`: the song at `from` ends at position `to`; mpd 0.23 calls a
    /// position out of the list a bad range.
    package static func move(from: Int, to: Int, in songs: [String]) throws(MPDAck) -> [String] {
        guard songs.indices.contains(from), songs.indices.contains(to) else { throw MPDAck(.argument, "Bad range") }
        var result = songs
        let song = result.remove(at: from)
        result.insert(song, at: to)
        return result
    }

    /// The songs of `range` (`load NAME START:END`): mpd reads a range past the end as up to
    /// the end, and one wholly past it as none.
    package static func slice(_ songs: [String], _ range: Range<Int>?) -> [String] {
        guard let range else { return songs }
        let lower = min(range.lowerBound, songs.count)
        return Array(songs[lower..<max(lower, min(range.upperBound, songs.count))])
    }
}

/// The playlist commands' own argument forms, worded as mpd 0.23 words their refusals (the
/// queue's commands word theirs differently).
extension MPDArguments {
    /// `POS` or `START:END` (END excluded, left out for "to the end", may pass the end).
    func playlistRange(_ i: Int) throws(MPDAck) -> Range<Int> {
        let text = string(i) ?? ""
        guard let colon = text.firstIndex(of: ":") else {
            guard let position = Int(text), position >= 0 else { throw MPDAck(.argument, "Integer or range expected: \(text)") }
            return position..<(position + 1)
        }
        let endText = text[text.index(after: colon)...]
        guard let start = Int(text[..<colon]), start >= 0, let end = endText.isEmpty ? Int.max : Int(endText) else {
            throw MPDAck(.argument, "Integer or range expected: \(text)")
        }
        guard end >= start else { throw MPDAck(.argument, "Malformed range: \(text)") }
        return start..<end
    }

    /// A queue position to load songs at: at most the queue's length.
    func insertPosition(_ i: Int, count total: Int) throws(MPDAck) -> Int {
        let position = try unsigned(i)
        guard position <= total else { throw MPDAck(.argument, "Number too large: \(position)") }
        return position
    }
}
