import Foundation
import AudioEngine
import Media
import PlayerCore
import Services

/// Where the player's transcripts come from: an episode's from the library when kept there, else
/// from the address its feed names (`TranscriptService`, then kept); a local file's from a WebVTT
/// or SRT file of the same name beside it (`talk.mp3` and `talk.vtt`), as video players find
/// subtitles, else from its own text subtitle track (`EmbeddedSubtitles`). A song's lyrics come
/// the same way, to be followed by the same follower: an `.lrc` file beside it, else its own
/// lyrics tags (`EmbeddedLyrics`).
struct PlayerTranscripts: TranscriptSource {
    let service: TranscriptService
    let store: (any TranscriptStore)?
    /// Largest subtitle file read beside a local file, bytes.
    let maxSidecarBytes: Int

    func transcript(for track: Track) async -> Result<Transcript, PlaybackError>? {
        if let link = track.transcript {
            if let kept = store?.transcript(at: link) { return .success(kept) }
            do throws(PlaybackError) {
                let transcript = try await service.load(link.url, format: link.format)
                store?.keep(transcript, from: link)
                return .success(transcript)
            } catch {
                return .failure(error)
            }
        }
        guard track.url.isFileURL else { return nil }
        if let (file, format) = Self.sidecar(of: track.url) { return Self.read(file, format: format, maxBytes: maxSidecarBytes) }
        // Reading a track means reading through the file: off the player's executor.
        let url = track.url
        return await Task.detached(priority: .utility) { () -> Result<Transcript, PlaybackError>? in
            // Lyrics beside the file come first; an unreadable one gives way to the file's own.
            let lrc = Self.lyricsFile(of: url).map { Self.readLyrics($0) }
            if case .success? = lrc { return lrc }
            if let own = EmbeddedSubtitles.transcript(of: url) ?? EmbeddedLyrics.transcript(of: url) { return .success(own) }
            return lrc
        }.value
    }

    /// The `.lrc` file beside `audio` (`song.flac` and `song.lrc`); nil when there is none.
    static func lyricsFile(of audio: URL) -> URL? {
        let candidate = audio.deletingPathExtension().appendingPathExtension("lrc")
        return FileManager.default.isReadableFile(atPath: candidate.path) ? candidate : nil
    }

    static func readLyrics(_ file: URL) -> Result<Transcript, PlaybackError> {
        do throws(PlaybackError) {
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            guard size <= LyricsParser.maxBytes else { throw PlaybackError(.documentTooLarge, underlying: "lyrics file of \(size) bytes") }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw PlaybackError(.permissionDenied, underlying: "lyrics file could not be read")
            }
            return .success(try LyricsParser.parse(data))
        } catch {
            return .failure(error)
        }
    }

    /// The subtitle file beside `audio`, WebVTT before SRT; nil when there is none.
    static func sidecar(of audio: URL) -> (URL, TranscriptFormat)? {
        let base = audio.deletingPathExtension()
        for format in [TranscriptFormat.webVTT, .srt] {
            let candidate = base.appendingPathExtension(format.rawValue)
            if FileManager.default.isReadableFile(atPath: candidate.path) { return (candidate, format) }
        }
        return nil
    }

    static func read(_ file: URL, format: TranscriptFormat, maxBytes: Int) -> Result<Transcript, PlaybackError> {
        do throws(PlaybackError) {
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            guard size <= maxBytes else { throw PlaybackError(.documentTooLarge, underlying: "subtitle file of \(size) bytes") }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw PlaybackError(.permissionDenied, underlying: "subtitle file could not be read")
            }
            return .success(try TranscriptDocument.parse(data, format: format, maxBytes: maxBytes))
        } catch {
            return .failure(error)
        }
    }
}
