import Foundation
import AudioEngine
import Media
import PlayerCore
import Services

/// Where the player's transcripts come from: an episode's from the library when kept there, else
/// from the address its feed names (`TranscriptService`, then kept); a local file's from a WebVTT
/// or SRT file of the same name beside it (`talk.mp3` and `talk.vtt`), as video players find
/// subtitles, else from its own text subtitle track (`EmbeddedSubtitles`).
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
        return await Task.detached(priority: .utility) { EmbeddedSubtitles.transcript(of: url) }.value.map { .success($0) }
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
