import Foundation
import Library
import Logging
import PlayerCore

/// Brings the music index up to date with the music directory: scans the disk, decides with
/// `MusicIndexPlan`, reads the tags of what is new or changed, and writes in batches (one
/// transaction each, so an update stopped half way keeps what it finished). A file whose tags
/// cannot be read is written as a failure with its typed error; nothing is skipped silently.
///
/// Synchronous and blocking (it opens files): the CLI calls it directly, the daemon on a thread
/// of its own.
package struct MusicIndexer: Sendable {
    /// Reads one file's tags (FFmpeg's reader in the product).
    package typealias TagRead = @Sendable (URL) throws(PlaybackError) -> SongTags

    /// Files read between two writes.
    package static let batchSize = 100

    package let directory: URL
    package let store: LibraryStore
    package let read: TagRead
    package let logger: Logger

    package init(directory: URL, store: LibraryStore, read: @escaping TagRead, logger: Logger) {
        self.directory = directory
        self.store = store
        self.read = read
        self.logger = logger
    }

    /// How far an update is: files read of those it must read.
    package struct Progress: Sendable, Equatable {
        package var read: Int
        package var total: Int

        package init(read: Int, total: Int) {
            self.read = read
            self.total = total
        }
    }

    /// What an update did.
    package struct Summary: Sendable, Equatable {
        package var read = 0
        package var removed = 0
        package var unchanged = 0
        /// Files read now whose tags could not be read.
        package var failures = 0
        package var unreadableFolders = 0
        package var undecodableNames = 0
        /// Stopped before the end (by `isCancelled`); what was written stays.
        package var stopped = false
        package var seconds: Double = 0

        /// Whether the index is different after the update (MPD's `idle database` fires then).
        package var changedIndex: Bool { read > 0 || removed > 0 }
    }

    /// Updates the index; `rereadAll` reads every file again (MPD's `rescan`).
    package func update(
        rereadAll: Bool = false, progress: (Progress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws(PlaybackError) -> Summary {
        let stopwatch = Stopwatch()
        let disk = try MusicDirectoryScan.scan(directory)
        let plan = MusicIndexPlan(disk: disk, index: try store.musicStamps(), rereadAll: rereadAll)
        // A `.cue` read or gone decides whether a FLAC beside it shows its embedded sheet
        // (`EmbeddedCueSheetReading`): those FLACs are read again with it, changed or not.
        let toRead = plan.toRead + flacsBesideChangedCueSheets(plan: plan, disk: disk)
        var summary = Summary(
            removed: plan.gone.count, unchanged: plan.unchanged - (toRead.count - plan.toRead.count),
            unreadableFolders: disk.unreadableFolders.count, undecodableNames: disk.undecodableNames)
        logger.info(
            "music index update begins",
            metadata: [
                "to_read": "\(toRead.count)", "gone": "\(plan.gone.count)", "unchanged": "\(plan.unchanged)",
                "unreadable_folders": "\(disk.unreadableFolders.count)", "undecodable_names": "\(disk.undecodableNames)",
                "skipped_folders": "\(disk.skippedFolders)",
            ])
        if !plan.gone.isEmpty { try store.saveMusic([], removing: plan.gone) }
        progress(Progress(read: 0, total: toRead.count))
        var batch: [MusicFileReading] = []
        // Cue sheets read again in this batch, and files read (a sheet is one file, many rows).
        var sheets: [String] = []
        var filesInBatch = 0
        func write() throws(PlaybackError) {
            try store.saveMusic(batch, replacing: sheets)
            summary.read += filesInBatch
            batch.removeAll(keepingCapacity: true)
            sheets.removeAll()
            filesInBatch = 0
            progress(Progress(read: summary.read, total: toRead.count))
        }
        for path in toRead {
            if isCancelled() {
                summary.stopped = true
                break
            }
            guard let stamp = disk.files[path] else { continue }
            filesInBatch += 1
            if MusicFiles.isCueSheet(name: path) {
                sheets.append(path)
                do throws(PlaybackError) {
                    batch += try CueSheetReading.readings(of: path, stamp: stamp, in: directory, read: read)
                } catch {
                    summary.failures += 1
                    logger.debug("a cue sheet could not be read", metadata: ["error": "\(error.errorType)"])
                    batch.append(MusicFileReading(path: path, stamp: stamp, result: .failure(error)))
                }
            } else {
                let url = directory.appendingPathComponent(path)
                let result: Result<SongTags, PlaybackError>
                do throws(PlaybackError) {
                    result = .success(try read(url))
                } catch {
                    summary.failures += 1
                    logger.debug("a music file could not be read", metadata: ["error": "\(error.errorType)"])
                    result = .failure(error)
                }
                if EmbeddedCueSheetReading.mayEmbed(path), case .success(let tags) = result {
                    // Its tracks of a sheet it held before go with it, as a `.cue`'s do.
                    sheets.append(path)
                    batch += EmbeddedCueSheetReading.readings(of: path, stamp: stamp, imageTags: tags, in: directory, logger: logger)
                } else {
                    if EmbeddedCueSheetReading.mayEmbed(path) { sheets.append(path) }
                    batch.append(MusicFileReading(path: path, stamp: stamp, result: result))
                }
            }
            if batch.count >= Self.batchSize { try write() }
        }
        if filesInBatch > 0 { try write() }
        if !summary.stopped { try store.markMusicUpdated() }
        summary.seconds = stopwatch.seconds
        logger.info(
            "music index update ends",
            metadata: [
                "read": "\(summary.read)", "removed": "\(summary.removed)", "failures": "\(summary.failures)",
                "stopped": "\(summary.stopped)", "ms": "\(stopwatch.milliseconds)",
            ])
        return summary
    }

    /// FLAC files that embed a sheet, in a folder where a cue sheet is read or gone this update,
    /// not already to read (a plain FLAC beside a `.cue` is not read again).
    func flacsBesideChangedCueSheets(plan: MusicIndexPlan, disk: MusicDirectoryScan) -> [String] {
        let sheets = (plan.toRead + plan.gone.map(MusicFiles.source)).filter { MusicFiles.isCueSheet(name: ($0 as NSString).lastPathComponent) }
        guard !sheets.isEmpty else { return [] }
        let folders = Set(sheets.map(MusicFiles.directory))
        let reading = Set(plan.toRead)
        return disk.files.keys.filter {
            EmbeddedCueSheetReading.mayEmbed($0) && folders.contains(MusicFiles.directory(of: $0)) && !reading.contains($0)
                && !EmbeddedCueSheetReading.embedded(in: directory.appendingPathComponent($0)).isEmpty
        }.sorted()
    }
}
