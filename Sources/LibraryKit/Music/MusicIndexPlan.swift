import Library

/// What an update must do, decided from the disk and the index alone: read the files that are new
/// or changed (another modification time or size), drop the rows of files that are gone. An
/// unchanged file is never opened, which keeps an update of a large, unchanged library quick.
/// What lies under a folder that could not be read is kept as it is: an unreadable folder is not
/// a deleted one.
package struct MusicIndexPlan: Sendable, Equatable {
    /// New or changed files, in path order (so progress reads as the folders go by).
    package var toRead: [String]
    /// Indexed files no longer on disk.
    package var gone: [String]
    /// Files on disk the index already holds as they are.
    package var unchanged: Int

    /// A cue sheet's tracks are rows of their own (`album.cue/track0001`) stamped with the
    /// sheet's stamp: they are compared, read and dropped as the sheet (`MusicFiles.source`).
    package init(disk: MusicDirectoryScan, index: [String: MusicFileStamp], rereadAll: Bool = false) {
        var sources: [String: MusicFileStamp] = [:]
        for (path, stamp) in index { sources[MusicFiles.source(of: path)] = stamp }
        toRead = disk.files.filter { rereadAll || sources[$0.key] != $0.value }.map(\.key).sorted()
        let shielded = disk.unreadableFolders.map { $0.isEmpty ? "" : $0 + "/" }
        gone = index.keys.filter { path in
            disk.files[MusicFiles.source(of: path)] == nil && !shielded.contains { path.hasPrefix($0) }
        }.sorted()
        unchanged = disk.files.count - toRead.count
    }
}
