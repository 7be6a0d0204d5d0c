import Crypto
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
        func hash<H: HashFunction>(_ hasher: inout H) throws(PlaybackError) -> Data {
            while true {
                let piece: Data?
                do {
                    piece = try handle.read(upToCount: 1 << 20)
                } catch {
                    throw PlaybackError(.fileNotFound, underlying: "the downloaded file could not be read to the end")
                }
                guard let piece, !piece.isEmpty else { break }
                hasher.update(data: piece)
            }
            return Data(hasher.finalize())
        }
        switch algorithm {
        case .sha256:
            var hasher = SHA256()
            return try hash(&hasher)
        case .sha384:
            var hasher = SHA384()
            return try hash(&hasher)
        case .sha512:
            var hasher = SHA512()
            return try hash(&hasher)
        }
    }
}
