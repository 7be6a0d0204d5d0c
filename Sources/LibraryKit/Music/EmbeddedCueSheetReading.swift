import Foundation
import Library
import Logging
import PlayerCore

/// A FLAC file's embedded cue sheet read into its tracks' rows (`album/image.flac/track0001`...),
/// stamped with the FLAC's stamp, beside the FLAC's own row; the FLAC alone when it has none, the
/// sheet is broken, or a `.cue` beside it names it.
///
/// What mpd 0.23.12 does with the same files (seen with the real mpd, `MPDEmbeddedCueComparisonTests`):
/// - a `CUESHEET` comment makes the FLAC one song in the database *and* a playlist of the same
///   path (`playlist: album/image.flac` follows the song in `lsinfo`, `listall`, `find`), whose
///   `listplaylistinfo` and `load` give the tracks, each with its `Range` and the sheet's tags
///   completed by the file's; the FLAC is no folder and its tracks are no database songs;
/// - a `CUESHEET` block is not seen by its database update at all: the file is one plain song
///   (its `listplaylist` answers broken entries, one per track and the lead-out, named after the
///   folder);
/// - a `.cue` beside that names the FLAC wins: the FLAC is hidden as any image is, the `.cue`'s
///   tracks are listed once.
///
/// The comment is read first, as mpd's `embcue` plugin reads it; the block when there is no
/// comment or it does not read.
///
/// Reading is bounded: at most `maxBlocks` metadata blocks are walked (a picture's body is
/// skipped, not read), the comment block is read only up to `maxCommentBlockBytes`, the cue
/// block only up to `FLACCueSheetBlock.maxBytes`. A file that is not FLAC, or whose blocks are
/// cut short, has no embedded sheet.
package enum EmbeddedCueSheetReading {
    package static let maxBlocks = 1_024
    package static let maxCommentBlockBytes = 4 << 20

    /// What is embedded in a FLAC: the sheet's text from its comment, the block's body, or both.
    package struct Embedded: Sendable, Equatable {
        package var comment: Data?
        package var block: Data?
        package var isEmpty: Bool { comment == nil && block == nil }
    }

    /// Whether the file at `path` is one that can hold an embedded sheet (a FLAC, by its name).
    package static func mayEmbed(_ path: String) -> Bool { path.lowercased().hasSuffix(".flac") }

    /// The rows of the FLAC at `path` (relative to `directory`) whose tags were read as
    /// `imageTags`: the whole file, and its tracks when it holds a sheet that reads. The whole
    /// file stays a row, as mpd keeps it a song: asked by its path it answers, and listings leave
    /// it out as they leave out any file tracks play from (`LibraryStore`). A sheet that does not
    /// read is logged (its typed error, no path) and costs nothing but its tracks.
    package static func readings(
        of path: String, stamp: MusicFileStamp, imageTags: SongTags, in directory: URL, logger: Logger
    ) -> [MusicFileReading] {
        let whole = [MusicFileReading(path: path, stamp: stamp, result: .success(imageTags))]
        guard mayEmbed(path) else { return whole }
        // The file's own headers first: most FLACs embed nothing, and then no `.cue` is read.
        let embedded = embedded(in: directory.appendingPathComponent(path))
        guard !embedded.isEmpty, !isNamedByACueSheet(path, in: directory) else { return whole }
        do throws(PlaybackError) {
            let songs = try songs(of: embedded, image: path, imageTags: imageTags)
            return whole + songs.enumerated().map { index, tags in
                MusicFileReading(path: path + "/" + CueSheet.songName(ofTrack: index), stamp: stamp, result: .success(tags))
            }
        } catch {
            logger.debug("an embedded cue sheet could not be read; the file is one song", metadata: ["error": "\(error.errorType)"])
            return whole
        }
    }

    /// The tracks of what a FLAC embeds: its comment's sheet, else (none, or one that does not
    /// read) its block's.
    package static func songs(of embedded: Embedded, image: String, imageTags: SongTags) throws(PlaybackError) -> [SongTags] {
        if let comment = embedded.comment {
            do throws(PlaybackError) {
                return try EmbeddedCueSheet.songs(comment: comment, image: image, imageTags: imageTags)
            } catch {
                guard embedded.block != nil else { throw error }
            }
        }
        guard let body = embedded.block else { return [] }
        return try EmbeddedCueSheet.songs(block: FLACCueSheetBlock.parse(body), image: image, imageTags: imageTags)
    }

    /// Whether a `.cue` in the FLAC's folder names it: then the `.cue`'s tracks stand for it
    /// (`CueSheetReading`) and the embedded sheet is not read, so no track is listed twice.
    package static func isNamedByACueSheet(_ path: String, in directory: URL) -> Bool {
        let folder = MusicFiles.directory(of: path)
        let url = folder.isEmpty ? directory : directory.appendingPathComponent(folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return false }
        for name in names where MusicFiles.isCueSheet(name: name) {
            let sheetURL = url.appendingPathComponent(name)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: sheetURL.path))?[.size] as? Int,
                size <= CueSheetParser.maxBytes, let data = try? Data(contentsOf: sheetURL),
                let sheet = try? CueSheetParser.parse(data)
            else { continue }
            if sheet.tracks.contains(where: { (try? CueSheet.imagePath($0.file, besides: folder)) == path }) { return true }
        }
        return false
    }

    /// The `CUESHEET` comment and block of the FLAC at `url`, walking its metadata blocks.
    package static func embedded(in url: URL) -> Embedded {
        var found = Embedded()
        guard let handle = try? FileHandle(forReadingFrom: url) else { return found }
        defer { try? handle.close() }
        func read(_ count: Int) -> [UInt8]? {
            guard let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        }
        guard var magic = read(4) else { return found }
        // An ID3v2 tag some taggers put before the stream: skipped by its syncsafe size.
        if magic.starts(with: Array("ID3".utf8)) {
            guard let rest = read(6) else { return found }
            let size = rest[2...5].reduce(UInt64(0)) { $0 << 7 | UInt64($1 & 0x7F) }
            guard (try? handle.seek(toOffset: 10 + size)) != nil, let after = read(4) else { return found }
            magic = after
        }
        guard magic == Array("fLaC".utf8) else { return found }
        for _ in 0..<maxBlocks {
            guard let header = read(4) else { return found }
            let type = header[0] & 0x7F
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            if type == 4, found.comment == nil, length <= maxCommentBlockBytes {
                guard let body = read(length) else { return found }
                found.comment = cueSheetComment(in: body)
            } else if type == FLACCueSheetBlock.blockType, found.block == nil, length <= FLACCueSheetBlock.maxBytes {
                guard let body = read(length) else { return found }
                found.block = Data(body)
            } else {
                guard let offset = try? handle.offset(), (try? handle.seek(toOffset: offset + UInt64(length))) != nil else { return found }
            }
            if header[0] & 0x80 != 0 { break }
        }
        return found
    }

    /// The value of the `CUESHEET` field of a Vorbis comment block (little-endian lengths: the
    /// vendor string, the count, each `NAME=value`), nil when there is none or it is cut short.
    package static func cueSheetComment(in body: [UInt8]) -> Data? {
        var position = 0
        func length() -> Int? {
            guard body.count - position >= 4 else { return nil }
            defer { position += 4 }
            return (0..<4).reduce(0) { $0 | Int(body[position + $1]) << (8 * $1) }
        }
        guard let vendor = length(), vendor <= body.count - position else { return nil }
        position += vendor
        guard let count = length() else { return nil }
        let key = Array("CUESHEET=".utf8)
        for _ in 0..<count {
            guard let size = length(), size <= body.count - position else { return nil }
            let field = body[position..<position + size]
            position += size
            guard field.count >= key.count,
                zip(field.prefix(key.count), key).allSatisfy({ $0 == $1 || ($0 >= 0x61 && $0 <= 0x7A && $0 - 0x20 == $1) })
            else { continue }
            let value = field.dropFirst(key.count)
            return value.count <= CueSheetParser.maxBytes ? Data(value) : nil
        }
        return nil
    }
}
