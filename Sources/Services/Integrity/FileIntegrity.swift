import Digests
import Foundation
import PlayerCore

/// Checks a downloaded file against the digest its feed gave (`podcast:integrity`, SRI), reading
/// it in 1 MiB pieces so an episode of hours never sits in memory whole.
package enum FileIntegrity {
    /// - Throws: `corruptData` when the file's digest is none of those accepted (the bytes are not
    ///   the file the publisher described: damaged on the way, or replaced); `fileNotFound` when
    ///   it cannot be read.
    package static func verify(_ file: URL, against integrity: SubresourceIntegrity) throws(PlaybackError) {
        let digest = try self.digest(of: file, algorithm: integrity.algorithm)
        guard integrity.digests.contains(digest) else {
            throw PlaybackError(.corruptData, underlying: "the file's \(integrity.algorithm.rawValue) digest is not the one its feed gives")
        }
    }

    /// The file's digest with `algorithm`.
    package static func digest(of file: URL, algorithm: SubresourceIntegrity.Algorithm) throws(PlaybackError) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: file) else {
            throw PlaybackError(.fileNotFound, underlying: "the downloaded file cannot be read to check it")
        }
        defer { try? handle.close() }
        let function: SHA2 = switch algorithm {
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
        var hasher = SHA2Hasher(function)
        while true {
            let piece: Data?
            do {
                piece = try handle.read(upToCount: 1 << 20)
            } catch {
                throw PlaybackError(.fileNotFound, underlying: "the downloaded file could not be read to the end")
            }
            guard let piece, !piece.isEmpty else { break }
            hasher.update(piece)
        }
        return Data(hasher.finalize())
    }
}
