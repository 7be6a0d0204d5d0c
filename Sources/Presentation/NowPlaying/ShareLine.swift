import Foundation
import PlayerCore

/// The line `y` (share) gives for what is playing, to paste to a friend: the song and the station
/// with its address, or the episode with its address at the current time (a `#t=` media fragment,
/// W3C Media Fragments), or a file's title. Pure, so every case is a unit test.
///
/// Nothing personal goes in it: an address loses its user, password, query and fragment (a
/// stream's query often carries a listener token), and a file on this machine is named by its
/// title, never its path.
package enum ShareLine {
    /// The longest line given, characters.
    package static let maxLength = 500

    package static func line(track: Track, metadata: NowPlayingMetadata?, position: Double?) -> String {
        let text: String
        switch track.kind {
        case .liveStream:
            let station = metadata?.station ?? track.title ?? track.url.host ?? "a station"
            let song = [metadata?.artist, metadata?.title].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " – ")
            let address = publicAddress(track.url).map { " " + $0 } ?? ""
            text = song.isEmpty || metadata?.artwork == .station ? "\(station)\(address)" : "♪ \(song) — on \(station)\(address)"
        case .episode:
            let name = [track.title, track.album].compactMap { $0 }.joined(separator: " — ")
            let seconds = max(0, Int((position ?? 0).rounded(.down)))
            if let address = publicAddress(track.url) {
                text = "\(name) \(address)\(seconds > 0 ? "#t=\(seconds)" : "")"
            } else {
                text = seconds > 0 ? "\(name) at \(clock(seconds))" : name
            }
        case .file:
            let title = metadata?.title ?? track.title ?? track.url.deletingPathExtension().lastPathComponent
            let artist = metadata?.artist ?? track.artist
            text = [title, artist].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " — ")
        }
        return TextSanitizer.singleLine(text, maxLength: maxLength)
    }

    /// `scheme://host[:port]/path` of an http(s) address; nil for anything else (a file).
    static func publicAddress(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.host?.isEmpty == false
        else { return nil }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.url?.absoluteString
    }

    private static func clock(_ seconds: Int) -> String {
        let h = seconds / 3600
        let m = seconds / 60 % 60
        let s = seconds % 60
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
