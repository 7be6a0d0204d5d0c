import AudioEngine
import MPRIS
import PlayerCore

extension LibraryController {
    /// The one consumer of the player's updates: each, in order, reaches MPRIS, the saved
    /// settings, the title history, the observer, the item's recorder and then the screen.
    func feedUpdates(of player: AudioPlayer, to mpris: MPRISBridge?) -> Task<Void, Never> {
        Task(executorPreference: player.executor) {
            defer { mpris?.stop() }
            await player.consumeUpdates { updates in
                for await update in updates {
                    mpris?.observe(update)
                    self.assembly.observers.observe(update)
                    self.observer?(update)
                    self.playback.withLock { $0.recorder }?(update)
                    self.dispatch(.player(update))
                }
            }
        }
    }
}
