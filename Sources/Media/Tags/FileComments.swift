import CFFmpeg
import Foundation
import PlayerCore

/// The raw key-value pairs a song's file holds, as MPD's `readcomments` lists them: every entry
/// of the container's and the audio stream's metadata (Vorbis comments, ID3v2 frames, APEv2 items,
/// MP4 atoms), the file's first, under the names FFmpeg gives them (`title`, `MY_KEY`), not mapped
/// to `SongTag`s. What a client could not read back is left out, as mpd leaves it out: a key or
/// value with a line break, an empty key. Keys and values are bounded as every tag is.
package enum FileComments {
    package static func read(_ url: URL) throws(PlaybackError) -> [(key: String, value: String)] {
        let file = try ProbedFile.open(url, analysingStreams: true)
        guard let index = file.audioStreamIndex, let stream = file.stream(index) else {
            throw PlaybackError(.unsupportedFormat, underlying: "no audio stream")
        }
        let entries = TagNormalisation.entries(of: file.format.pointee.metadata) + TagNormalisation.entries(of: stream.pointee.metadata)
        return entries.filter { entry in
            !entry.key.isEmpty && !entry.key.contains(where: \.isNewline) && !entry.key.contains(":") && !entry.value.contains(where: \.isNewline)
        }
    }
}
