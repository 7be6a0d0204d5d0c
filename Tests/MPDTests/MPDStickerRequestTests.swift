import Foundation
import Library
import MPDProtocol
import Testing

@testable import MPD

/// `sticker` arguments read as mpd 0.23 reads them (the domain first, then the subcommand with
/// its exact count, then find's operator), and the folders `sticker find` and `listfiles` accept:
/// every other input is the client's ACK, never a crash.
@Suite("MPD sticker requests and listfiles paths")
struct MPDStickerRequestTests {
    func request(_ arguments: String...) -> Result<MPDStickerRequest, MPDAck> {
        Result { () throws(MPDAck) in try MPDStickerRequest(arguments) }
    }

    func refusal(_ arguments: String...) -> String? {
        do {
            _ = try MPDStickerRequest(arguments)
            return nil
        } catch { return "\(error.code.rawValue) \(error.message)" }
    }

    @Test func eachSubcommandWithItsArguments() throws {
        #expect(try request("get", "song", "Music/a.flac", "rating").get() == .get(uri: "Music/a.flac", name: "rating"))
        #expect(try request("set", "song", "Music/a.flac", "rating", "5").get() == .set(uri: "Music/a.flac", name: "rating", value: "5"))
        #expect(try request("delete", "song", "Music/a.flac").get() == .delete(uri: "Music/a.flac", name: nil))
        #expect(try request("delete", "song", "Music/a.flac", "rating").get() == .delete(uri: "Music/a.flac", name: "rating"))
        #expect(try request("list", "song", "Music/a.flac").get() == .list(uri: "Music/a.flac"))
        #expect(try request("find", "song", "", "rating").get() == .find(directory: "", name: "rating", comparison: .exists))
        #expect(try request("find", "song", "Music", "rating", "=", "5").get() == .find(directory: "Music", name: "rating", comparison: .equals("5")))
        #expect(try request("find", "song", "Music", "rating", "<", "5").get() == .find(directory: "Music", name: "rating", comparison: .lessThan("5")))
        #expect(try request("find", "song", "Music", "rating", ">", "").get() == .find(directory: "Music", name: "rating", comparison: .greaterThan("")))
        #expect(try request("set", "song", "u", "n", "v").get().changes)
        #expect(try !request("find", "song", "u", "n").get().changes)
    }

    @Test func refusalsInMPDsOrderAndWords() {
        // The domain is checked before the subcommand.
        #expect(refusal("bogus", "playlist", "x") == "2 unknown sticker domain")
        #expect(refusal("bogus", "song", "x") == "2 bad request")
        #expect(refusal("get", "song", "x") == "2 bad request")
        #expect(refusal("set", "song", "x", "n") == "2 bad request")
        #expect(refusal("list", "song", "x", "extra") == "2 bad request")
        #expect(refusal("delete", "song", "x", "n", "extra") == "2 bad request")
        #expect(refusal("find", "song", "x", "n", "=") == "2 bad request")
        #expect(refusal("find", "song", "x", "n", "~", "1") == "2 bad operator")
        #expect(refusal("find", "song", "x", "n", "==", "1") == "2 bad operator")
        #expect(refusal("get", "song") == "2 too few arguments for \"sticker\"")
    }

    @Test func findSearchesOnlyTheMusicFolder() {
        #expect(MPDPlayerBackend.musicFolder("") == "")
        #expect(MPDPlayerBackend.musicFolder("Music") == "")
        #expect(MPDPlayerBackend.musicFolder("Music/Кино") == "Кино")
        // A trailing slash finds nothing in mpd; so does a folder that is not the music's.
        #expect(MPDPlayerBackend.musicFolder("Music/") == nil)
        #expect(MPDPlayerBackend.musicFolder("Stations") == nil)
        #expect(MPDPlayerBackend.musicFolder("Musical") == nil)
    }

    @Test func listfilesNeverLeavesTheMusicDirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-listfiles-\(UUID().uuidString)")
        let music = root.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music.appendingPathComponent("Album"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(at: music.appendingPathComponent("outside"), withDestinationURL: root)
        try FileManager.default.createSymbolicLink(at: music.appendingPathComponent("inside"), withDestinationURL: music.appendingPathComponent("Album"))
        try Data("x".utf8).write(to: music.appendingPathComponent("Album/cover.jpg"))
        func denied(_ parts: [String]) -> Bool {
            do {
                _ = try MPDMusicFolderListing.folder(parts, in: music)
                return false
            } catch { return error == MPDMusicFolderListing.denied }
        }
        #expect(denied([".."]))
        #expect(denied(["Album", "..", "Album"]))
        #expect(denied(["."]))
        #expect(denied(["outside"]))
        #expect(!denied(["inside"]))
        #expect(!denied([]))
        // A link is not listed as an entry; a file that is not a song is, with its size.
        let listing = try MPDMusicFolderListing(reading: try MPDMusicFolderListing.folder([], in: music), uri: "Music")
        #expect(listing.entries.map(\.name) == ["Album"])
        let album = try MPDMusicFolderListing(reading: try MPDMusicFolderListing.folder(["Album"], in: music), uri: "Music/Album")
        #expect(album.entries.map { "\($0.name) \($0.size) \($0.isDirectory)" } == ["cover.jpg 1 false"])
        #expect(album.response().fields.map(\.key) == ["file", "size", "Last-Modified"])
        #expect(throws: MPDAck.self) { try MPDMusicFolderListing(reading: music.appendingPathComponent("Album/cover.jpg"), uri: "Music/Album/cover.jpg") }
    }
}
