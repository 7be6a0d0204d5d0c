import AudioEngine
import MPRIS
import PlayerCore

extension LibraryController {
    /// The one consumer of the player's updates: each, in order, reaches MPRIS, the saved
    /// settings, the title history, the observer, the item's recorder and then the screen.
    func feedUpdates(of player: AudioPlayer, to mpris: MPRISBridge?) -> Task<Void, Never> {
        Task {
            defer { mpris?.stop() }
            for await update in player.updates {
                mpris?.observe(update)
                self.listeningSettings.observe(update)
                self.history.observe(update)
                self.observer?(update)
                self.playback.withLock { $0.recorder }?(update)
                self.dispatch(.player(update))
            }
        }
    }
}
