import Foundation
import MPDProtocol

/// Commands about files in the music directory beyond the database's songs: `listfiles` lists
/// what is on the disk (covers, notes, files that are not songs) as mpd's local storage does.
/// (`searchaddpl`, which writes found songs to a stored playlist, is beside `searchadd` in
/// `MPDPlayerBackend+Database`, whose search it shares.)
extension MPDPlayerBackend {
    static let fileCommands: [MPDCommandEntry] = [
        MPDCommandEntry("listfiles", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.listFiles(a.string(0) ?? "")
        }
    ]

    /// `listfiles [URI]`: the top of the catalog holds the music directory as `Music`; below
    /// `Music/` the folder's every file and folder. Stations, podcasts and sessions have no files.
    private func listFiles(_ uri: String) throws(MPDAck) -> MPDResponse {
        guard let musicDirectory = catalog.musicDirectory else { throw MPDAck(.noExist, "No music directory") }
        guard !uri.hasPrefix("/") else { throw MPDMusicFolderListing.denied }
        let parts = uri.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let first = parts.first else {
            var r = MPDResponse()
            if let modified = catalog.musicFolderModified("") {
                r.append("directory", MPDDatabaseSong.root)
                r.append("Last-Modified", MPDDatabaseSong.timestamp(modified))
            }
            return r
        }
        guard first == MPDDatabaseSong.root else {
            if MPDCatalog.Root(rawValue: first) != nil { return .empty }
            throw MPDAck(.system, "Failed to open \(uri): No such file or directory")
        }
        let folder = try MPDMusicFolderListing.folder(Array(parts.dropFirst()), in: musicDirectory)
        return try MPDMusicFolderListing(reading: folder, uri: uri).response()
    }
}
