import Foundation
import Media
import PlayerCore

extension Track {
    /// The sources named on a command line as the tracks they play, in order: a cue sheet
    /// (`.cue`) is each of its tracks (`cueSheetTracks(at:argument:)`), anything else one track
    /// (`commandLineSource`). A sheet that cannot be read fails the whole list with its typed
    /// error, before anything plays: playing the tracks around it would hide it.
    public static func commandLineSources(_ sources: [String], finite: Bool) throws(PlaybackError) -> [Track] {
        var tracks: [Track] = []
        for (index, source) in sources.enumerated() {
            let url = URL(fileURLWithPath: source)
            if !source.contains("://"), url.pathExtension.lowercased() == "cue" {
                tracks += try cueSheetTracks(at: url, argument: index)
            } else {
                tracks.append(commandLineSource(source, index: index, finite: finite))
            }
        }
        return tracks
    }

    /// The tracks of the cue sheet at `url`, in order: each plays its part of the image the sheet
    /// names (`SongPartDecoder`, to the sample), told by the sheet's tags completed by the
    /// image's, as the music index tells a sheet's tracks. An image is looked for beside the sheet
    /// or below it (`CueSheet.imagePath`), never elsewhere.
    public static func cueSheetTracks(at url: URL, argument index: Int) throws(PlaybackError) -> [Track] {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= CueSheetParser.maxBytes else {
                throw PlaybackError(.documentTooLarge, underlying: "cue sheet over \(CueSheetParser.maxBytes) bytes")
            }
            data = try Data(contentsOf: url)
        } catch {
            throw PlaybackError.from(error)
        }
        let sheet = try CueSheetParser.parse(data)
        guard !sheet.tracks.isEmpty else { throw PlaybackError(.malformedData, underlying: "cue sheet without an audio track") }
        let folder = url.deletingLastPathComponent()
        var images: [String: (path: String, url: URL, tags: SongTags)] = [:]
        var tracks: [Track] = []
        for number in sheet.tracks.indices {
            let file = sheet.tracks[number].file
            if images[file] == nil {
                let path = try CueSheet.imagePath(file, besides: "")
                let image = folder.appendingPathComponent(path)
                images[file] = (path, image, try TagReader.read(image))
            }
            guard let image = images[file] else { continue }
            let tags = sheet.songTags(ofTrack: number, image: image.path, imageTags: image.tags).completed(by: image.tags)
            let id = "arg\(index + 1):\(url.lastPathComponent)/\(CueSheet.songName(ofTrack: number))"
            tracks.append(.localFile(id: id, url: image.url, tags: tags, duration: tags.audio.duration))
        }
        return tracks
    }
}
