import Foundation
import MPDProtocol
import Media
import PlayerCore

/// `readcomments URI`: the key-value pairs a song's file holds (`FileComments`), for a client's
/// "all tags" view. A cue track is its image's file, as in mpd. Only files of the music directory
/// are read: an absolute path or a URL is no song here (mpd would open either), so a client
/// cannot make the daemon read a file of the listener's or fetch an address.
extension MPDPlayerBackend {
    static let commentCommands: [MPDCommandEntry] = [
        MPDCommandEntry("readcomments", 1...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.comments(a.string(0) ?? "")
        }
    ]

    /// Read off the actor (a file on a slow disk must not hold other clients up); any failure is
    /// mpd's "No such song", the log getting the error's type alone.
    func comments(_ uri: String) async throws(MPDAck) -> MPDResponse {
        let noSuchSong = MPDAck(.noExist, "No such song")
        // mpd's answer to a TCP client naming a file outside its database.
        if uri.hasPrefix("/") { throw MPDAck(.permission, "Access denied") }
        let file: URL
        if let url = try? musicFile(uri) {
            file = url
        } else if let entries = try? catalog.entries(for: uri), entries.count == 1, let track = entries[0].items.first?.track,
            track.tags?.part != nil, track.url.isFileURL
        {
            file = track.url
        } else {
            throw noSuchSong
        }
        let result = await Task.detached { () -> Result<[(key: String, value: String)], PlaybackError> in
            do throws(PlaybackError) { return .success(try FileComments.read(file)) } catch { return .failure(error) }
        }.value
        switch result {
        case .success(let pairs):
            return MPDResponse(pairs.map { MPDResponse.Field($0.key, $0.value) })
        case .failure(let error):
            logger.info("MPD readcomments failed", metadata: ["error": "\(error.errorType)"])
            throw noSuchSong
        }
    }
}
