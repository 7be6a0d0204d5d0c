import Foundation
import LibraryKit
import Media
import MPDProtocol
import PlayerCore

/// Cover art as mpd serves it, a chunk at a time: `albumart URI OFFSET` sends the image file in
/// the song's folder (`cover.*`, `folder.*`, `front.*`), `readpicture URI OFFSET` the picture
/// embedded in the song (the front cover first). Each answer is `size` (the whole picture), for
/// `readpicture` its `type`, then at most the connection's `binarylimit` bytes from OFFSET; the
/// client asks again from where the chunk ended. A song without a picture is mpd's "No file
/// exists" for `albumart` and an empty answer for `readpicture`.
extension MPDPlayerBackend {
    static let pictureCommands: [MPDCommandEntry] = [
        MPDCommandEntry("albumart", 2...2, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let file = try b.musicFile(a.command.arguments[0])
            let offset = try a.unsigned(1)
            guard let image = CoverArt.folderImage(for: file) else { throw MPDAck(.noExist, "No file exists") }
            let bytes: Data
            do throws(PlaybackError) {
                bytes = try UserFile.read(image.path, maxBytes: MediaLimits.maxEmbeddedPictureBytes)
            } catch {
                throw MPDAck(.noExist, "No file exists")
            }
            return try MPDPlayerBackend.chunk(Array(bytes), type: nil, offset: offset, limit: a.command.client.binaryLimit)
        },
        MPDCommandEntry("readpicture", 2...2, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let file = try b.musicFile(a.command.arguments[0])
            let offset = try a.unsigned(1)
            let picture: EmbeddedPicture?
            do throws(PlaybackError) {
                picture = try CoverArt.embeddedPicture(in: file)
            } catch {
                throw MPDAck(.noExist, "No such file (\(error.code.typeName))")
            }
            guard let picture else { return .empty }
            return try MPDPlayerBackend.chunk(Array(picture.data), type: picture.mimeType, offset: offset, limit: a.command.client.binaryLimit)
        },
    ]

    /// The chunk from `offset`: mpd refuses an offset past the end ("Bad file offset").
    static func chunk(_ bytes: [UInt8], type: String?, offset: Int, limit: Int) throws(MPDAck) -> MPDResponse {
        guard offset <= bytes.count else { throw MPDAck(.argument, "Bad file offset") }
        var r = MPDResponse()
        r.append("size", String(bytes.count))
        if let type { r.append("type", type) }
        r.binary = Array(bytes[offset..<min(bytes.count, offset + limit)])
        return r
    }

    /// The local file a song URI names: a file of the music directory (the `Music/` path a
    /// client was given). Anything else has no pictures to read.
    func musicFile(_ uri: String) throws(MPDAck) -> URL {
        let parts = try MPDCatalog.split(uri)
        guard parts.first == MPDCatalog.Root.music.rawValue, parts.count > 1, let directory = catalog.musicDirectory else {
            throw MPDAck(.noExist, "No such file")
        }
        let base = directory.resolvingSymlinksInPath().standardizedFileURL
        let url = parts.dropFirst().reduce(base) { $0.appendingPathComponent($1) }.resolvingSymlinksInPath().standardizedFileURL
        var isDirectory: ObjCBool = false
        guard url.path.hasPrefix(base.path + "/"), FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw MPDAck(.noExist, "No such file")
        }
        return url
    }
}
