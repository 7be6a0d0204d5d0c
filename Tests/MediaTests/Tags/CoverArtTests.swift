import Foundation
import Media
import PlayerCore
import Testing

/// `CoverArt`: pictures embedded in files made by ffmpeg (the front cover chosen among several),
/// and cover images found beside a song.
@Suite("Cover art")
struct CoverArtTests {
    /// One second of tone with a red PNG marked "Cover (back)" then a blue JPEG marked
    /// "Cover (front)", as attached pictures.
    static func twoPictures(_ output: [String]) -> [String] {
        TagFixtures.tone + [
            "-f", "lavfi", "-i", "color=red:s=8x8:d=0.1", "-f", "lavfi", "-i", "color=blue:s=8x8:d=0.1",
            "-map", "0", "-map", "1", "-map", "2", "-frames:v:0", "1", "-frames:v:1", "1", "-c:v:0", "png", "-c:v:1", "mjpeg",
            "-disposition:v", "attached_pic", "-metadata:s:v:0", "comment=Cover (back)", "-metadata:s:v:1", "comment=Cover (front)",
            "-metadata", "title=Pictured",
        ] + output
    }

    @Test("The front cover is chosen among an MP3's pictures; the tags say a picture is there", arguments: ["3", "4"])
    func frontCoverOfMP3(version: String) throws {
        let files = try TagFixtures()
        let url = try files.make("song.mp3", Self.twoPictures(["-id3v2_version", version]))
        let picture = try #require(try CoverArt.embeddedPicture(in: url))
        #expect(picture.mimeType == "image/jpeg")
        #expect(picture.data.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(picture.data.count <= MediaLimits.maxEmbeddedPictureBytes)
        let tags = try TagReader.read(url)
        #expect(tags.hasEmbeddedPicture)
        #expect(tags[.title] == "Pictured")
        #expect(tags.audio.codec == "mp3", "the picture streams are not the audio")
    }

    @Test("FLAC and M4A pictures")
    func flacAndM4A() throws {
        let files = try TagFixtures()
        let flac = try files.make("song.flac", Self.twoPictures([]))
        let flacPicture = try #require(try CoverArt.embeddedPicture(in: flac))
        #expect(flacPicture.mimeType == "image/jpeg")
        #expect(try TagReader.read(flac).hasEmbeddedPicture)

        let m4a = try files.make(
            "song.m4a",
            TagFixtures.tone + [
                "-f", "lavfi", "-i", "color=green:s=8x8:d=0.1", "-map", "0", "-map", "1", "-frames:v", "1", "-c:v", "png",
                "-disposition:v", "attached_pic", "-c:a", "aac",
            ])
        let m4aPicture = try #require(try CoverArt.embeddedPicture(in: m4a))
        #expect(m4aPicture.mimeType == "image/png")
        #expect(m4aPicture.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try TagReader.read(m4a).hasEmbeddedPicture)
    }

    @Test("A file without a picture has none; a missing file is a typed error")
    func none() throws {
        let files = try TagFixtures()
        let url = try files.make("plain.mp3", TagFixtures.tone)
        #expect(try CoverArt.embeddedPicture(in: url) == nil)
        #expect(try !TagReader.read(url).hasEmbeddedPicture)
        #expect(throws: PlaybackError(.fileNotFound)) { try CoverArt.embeddedPicture(in: files.folder.appendingPathComponent("gone.mp3")) }
    }

    @Test("The folder's image: cover before folder before front, any case, regular files only")
    func folderImage() throws {
        let files = try TagFixtures()
        let song = try files.write("song.mp3", Data())
        #expect(CoverArt.folderImage(for: song) == nil)
        _ = try files.write("cover.gif", Data([1]))
        _ = try files.write("back.jpg", Data([1]))
        #expect(CoverArt.folderImage(for: song) == nil, "neither gif nor other names")
        _ = try files.write("FRONT.webp", Data([1]))
        #expect(CoverArt.folderImage(for: song)?.lastPathComponent == "FRONT.webp")
        _ = try files.write("Folder.PNG", Data([1]))
        #expect(CoverArt.folderImage(for: song)?.lastPathComponent == "Folder.PNG")
        try FileManager.default.createDirectory(at: files.folder.appendingPathComponent("cover.jpg"), withIntermediateDirectories: false)
        #expect(CoverArt.folderImage(for: song)?.lastPathComponent == "Folder.PNG", "a folder named cover.jpg is no image")
        _ = try files.write("Cover.jpeg", Data([1]))
        #expect(CoverArt.folderImage(for: song)?.lastPathComponent == "Cover.jpeg")
    }

    @Test("The artwork file: the folder's image as it is, else the embedded picture written once by its bytes")
    func artworkFile() throws {
        let files = try TagFixtures()
        let song = try files.make("song.mp3", Self.twoPictures(["-id3v2_version", "4"]))
        let cache = files.folder.appendingPathComponent("cache", isDirectory: true)
        let written = try #require(CoverArt.artworkFile(for: song, directory: cache))
        #expect(written.deletingLastPathComponent().standardizedFileURL == cache.standardizedFileURL)
        #expect(written.pathExtension == "jpg")
        #expect(try Data(contentsOf: written) == CoverArt.embeddedPicture(in: song)?.data)
        let copy = files.folder.appendingPathComponent("copy.mp3")
        try FileManager.default.copyItem(at: song, to: copy)
        #expect(CoverArt.artworkFile(for: copy, directory: cache) == written, "one file for one picture")
        let folderImage = try files.write("cover.png", Data([1]))
        #expect(CoverArt.artworkFile(for: song, directory: cache) == folderImage)
        let plain = try files.make("plain.mp3", TagFixtures.tone)
        try FileManager.default.removeItem(at: folderImage)
        #expect(CoverArt.artworkFile(for: plain, directory: cache) == nil)
    }
}
