import Foundation
import Library
import LibraryKit
import PlayerCore
import Presentation

extension LibraryController {
    /// Updates the music index on a thread of its own: the indexer blocks on the disk (it opens
    /// every new or changed file), which must hold neither the terminal's thread nor the shared
    /// pool. Its progress and its end come back as events; the screen goes on meanwhile.
    func updateMusicIndex(rescan: Bool) {
        guard let musicDirectory else { return }
        let indexer = library.musicIndexer(directory: musicDirectory, logger: logger)
        let thread = Thread { [self] in
            let outcome = Result { () throws(PlaybackError) in
                try indexer.update(rereadAll: rescan, progress: { progress in
                    self.dispatch(.musicIndexProgressed(MusicIndexProgress(read: progress.read, total: progress.total)))
                })
            }
            self.dispatch(.musicIndexed(outcome))
        }
        thread.name = "tonearm.music-index"
        thread.start()
    }

    /// Whether `url` is a folder that is there.
    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
