import Foundation
import PlayerCore

extension CoverArt {
    /// Where embedded pictures are written for clients that take a file (`mpris:artUrl`): the
    /// artwork service's own folder of image files, `$XDG_CACHE_HOME/tonearm/artwork/files`.
    package static var defaultFilesDirectory: URL {
        XDGDirectories().cache.appendingPathComponent("artwork", isDirectory: true).appendingPathComponent("files", isDirectory: true)
    }

    /// An image file showing the song's cover: the folder's image as it is, else the embedded
    /// picture written once into `directory` under a name made from its bytes (so two songs of one
    /// album share one file); nil when the song has neither or the file cannot be written.
    package static func artworkFile(for url: URL, directory: URL = defaultFilesDirectory) -> URL? {
        guard url.isFileURL else { return nil }
        if let folder = folderImage(for: url) { return folder }
        guard let picture = try? embeddedPicture(in: url) else { return nil }
        let ext = ["image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif", "image/bmp": "bmp"][picture.mimeType]
        guard let ext else { return nil }
        let file = directory.appendingPathComponent("embedded-\(fingerprint(picture.data)).\(ext)")
        if FileManager.default.fileExists(atPath: file.path) { return file }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try picture.data.write(to: file, options: .atomic)
            return file
        } catch {
            return nil
        }
    }

    /// 64-bit FNV-1a of the bytes and their count, as hex: a file name, not a security check.
    static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16) + "-" + String(data.count, radix: 16)
    }
}
