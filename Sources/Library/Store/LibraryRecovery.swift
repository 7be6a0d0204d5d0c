import Foundation
import PlayerCore

/// What `LibraryStore.open` did about a damaged database: where the old file was kept and the
/// `.libraryCorrupt` error to show the listener (their library starts empty, and they should know why).
package struct LibraryRecovery: Sendable, Equatable {
    /// The damaged file, renamed; its -wal and -shm (if any) sit beside it with the same suffixes.
    package let movedAsideTo: URL
    /// Always `.libraryCorrupt`; its log text says what SQLite found.
    package let error: PlaybackError

    package init(movedAsideTo: URL, error: PlaybackError) {
        self.movedAsideTo = movedAsideTo
        self.error = error
    }
}
