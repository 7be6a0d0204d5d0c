import Foundation
import MPDProtocol
import Media
import PlayerCore

/// `getfingerprint`: a song's acoustic fingerprint, as mpd computes it with chromaprint.
extension MPDPlayerBackend {
    static let fingerprintCommands: [MPDCommandEntry] = [
        MPDCommandEntry("getfingerprint", 1...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.fingerprint(a.string(0) ?? "")
        }
    ]

    /// `chromaprint: FINGERPRINT` for a file of the music directory. The decoding runs off the
    /// actor (two minutes of audio take a moment) so other clients are answered meanwhile.
    ///
    /// Refused as mpd refuses it, with a system error (`ACK [52@…]`): a song that is not a file of
    /// the music directory cannot be opened, one that does not decode fails. The client is told
    /// the URI it gave, never the path on disk; the log gets the error's type alone.
    func fingerprint(_ uri: String) async throws(MPDAck) -> MPDResponse {
        let file: URL
        do { file = try musicFile(uri) } catch {
            throw MPDAck(.system, "Failed to open '\(uri)': No such file or directory")
        }
        let result = await Task.detached { () -> Result<String, PlaybackError> in
            do throws(PlaybackError) { return .success(try ChromaprintFingerprint.compute(file: file)) } catch { return .failure(error) }
        }.value
        switch result {
        case .success(let fingerprint):
            return MPDResponse([.init("chromaprint", fingerprint)])
        case .failure(let error):
            logger.info("MPD getfingerprint failed", metadata: ["error": "\(error.errorType)"])
            throw MPDAck(.system, "Decoding failed")
        }
    }
}
