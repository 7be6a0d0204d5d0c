import CFFmpeg
import Foundation
import PlayerCore

/// A picture a song carries, as it is stored: its bytes and their MIME type, for a client that
/// asks for the raw image (MPD's `readpicture`) or a cache file (MPRIS's `mpris:artUrl`).
package struct EmbeddedPicture: Sendable, Hashable {
    package let data: Data
    /// "image/jpeg", "image/png"... from the stream's codec, or the bytes' signature.
    package let mimeType: String

    package init(data: Data, mimeType: String) {
        self.data = data
        self.mimeType = mimeType
    }
}

/// Finds a song's cover: the picture embedded in the file (an ID3 APIC frame, a FLAC PICTURE
/// block, an MP4 `covr` atom, which FFmpeg shows as an attached-picture stream), or an image file
/// beside it in its folder.
package enum CoverArt {
    /// The file's embedded picture: the front cover when it carries several (FFmpeg names the
    /// picture type in the stream's `comment`, "Cover (front)"), else the first. Pictures over
    /// `MediaLimits.maxEmbeddedPictureBytes` are passed over. Errors as `TagReader.read`.
    package static func embeddedPicture(in url: URL) throws(PlaybackError) -> EmbeddedPicture? {
        let file = try ProbedFile.open(url, analysingStreams: false)
        let streams = pictureStreams(in: file)
        let front = streams.first { stream in
            guard let entry = av_dict_get(stream.pointee.metadata, "comment", nil, 0), let value = entry.pointee.value else { return false }
            return TagNormalisation.boundedText(value, limit: 64).lowercased() == "cover (front)"
        }
        guard let chosen = front ?? streams.first, let bytes = chosen.pointee.attached_pic.data else { return nil }
        let data = Data(bytes: bytes, count: Int(chosen.pointee.attached_pic.size))
        return EmbeddedPicture(data: data, mimeType: mimeType(codec: chosen.pointee.codecpar.pointee.codec_id, data: data))
    }

    /// The attached-picture streams of `file` that hold bytes within the bound, in file order.
    static func pictureStreams(in file: ProbedFile) -> [UnsafeMutablePointer<AVStream>] {
        (0..<Int(file.format.pointee.nb_streams)).compactMap { index in
            guard let stream = file.stream(index), stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
                stream.pointee.attached_pic.data != nil,
                (1...MediaLimits.maxEmbeddedPictureBytes).contains(Int(stream.pointee.attached_pic.size))
            else { return nil }
            return stream
        }
    }

    /// The MIME type of a picture: from its codec, else its first bytes.
    static func mimeType(codec: AVCodecID, data: Data) -> String {
        switch codec {
        case AV_CODEC_ID_MJPEG: return "image/jpeg"
        case AV_CODEC_ID_PNG: return "image/png"
        case AV_CODEC_ID_WEBP: return "image/webp"
        case AV_CODEC_ID_GIF: return "image/gif"
        case AV_CODEC_ID_BMP: return "image/bmp"
        default: break
        }
        switch ImageKind.sniff(data) {
        case .supported(.jpeg): return "image/jpeg"
        case .supported(.png): return "image/png"
        case .webp: return "image/webp"
        case .gif: return "image/gif"
        case .bmp: return "image/bmp"
        default: return "application/octet-stream"
        }
    }

    /// Names of a folder's cover image, in the order they are preferred.
    package static let folderNames = ["cover", "folder", "front"]
    /// Extensions of a folder's cover image, in the order they are preferred.
    package static let folderExtensions = ["jpg", "jpeg", "png", "webp"]

    /// A cover image in the song's folder: `cover.*`, then `folder.*`, then `front.*`, each
    /// `jpg`, `jpeg`, `png` or `webp`, names compared case-insensitively; only regular files.
    package static func folderImage(for url: URL) -> URL? {
        guard url.isFileURL else { return nil }
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        var best: (rank: Int, name: String)?
        for name in names {
            let lowered = name.lowercased()
            guard let dot = lowered.lastIndex(of: "."),
                let base = folderNames.firstIndex(of: String(lowered[..<dot])),
                let ext = folderExtensions.firstIndex(of: String(lowered[lowered.index(after: dot)...]))
            else { continue }
            let rank = base * folderExtensions.count + ext
            if let current = best, current.rank < rank || (current.rank == rank && current.name < name) { continue }
            var isDirectory: ObjCBool = false
            let candidate = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            best = (rank, name)
        }
        return best.map { folder.appendingPathComponent($0.name) }
    }
}
