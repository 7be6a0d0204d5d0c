import PlayerCore

extension LibraryStateMachine {
    /// `l`: on Now Playing, likes the song playing; in History, likes the selected title or takes
    /// the like back; in Favourites, takes it back. Kept at once, on this machine only.
    mutating func like(onNowPlaying: Bool) -> [LibraryEffect] {
        if onNowPlaying { return [.likeCurrent] }
        switch model.selectedEntry {
        case .heard(let heard)?:
            return [.change(heard.liked ? .unlike(title: heard.title, artist: heard.artist) : .like(heard))]
        case .favourite(let song)?:
            return [.change(.unlike(title: song.title, artist: song.artist))]
        default:
            return []
        }
    }

    mutating func likedCurrent(_ liked: Result<Bool, PlaybackError>) -> [LibraryEffect] {
        switch liked {
        case .success(true):
            model.player.markLiked()
            model.changed()
            return []
        case .success(false):
            return []
        case .failure(let error):
            alert(error, operation: .playback)
            return [.record(error, operation: "likeSong")]
        }
    }
}
