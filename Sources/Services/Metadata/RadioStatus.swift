import Foundation
import PlayerCore

/// A radio.co-style status API answer: what plays now and its cover. Text is sanitised and URLs
/// checked as they are decoded, so nothing unclean leaves here.
///
/// `Track.title` is optional so that an answer without a title (a station between tracks) still
/// decodes and simply has nothing to match.
package struct RadioStatus: Codable, Sendable, Equatable {
    /// `current_track`.
    package struct Track: Codable, Sendable, Equatable {
        /// Usually "Artist - Title".
        package let title: String?
        /// `artwork_url_large`, kept only when it is an http(s) URL.
        package let artworkURLLarge: URL?
        /// `artwork_url` (the small cover), kept only when http(s): used when there is no large one.
        package let artworkURL: URL?

        package init(title: String?, artworkURLLarge: URL?, artworkURL: URL? = nil) {
            self.title = title
            self.artworkURLLarge = artworkURLLarge
            self.artworkURL = artworkURL
        }

        enum CodingKeys: String, CodingKey {
            case title
            case artworkURLLarge = "artwork_url_large"
            case artworkURL = "artwork_url"
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = container.metadataText(forKey: .title)
            artworkURLLarge = MetadataText.httpURL(try? container.decodeIfPresent(String.self, forKey: .artworkURLLarge))
            artworkURL = MetadataText.httpURL(try? container.decodeIfPresent(String.self, forKey: .artworkURL))
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(title, forKey: .title)
            try container.encodeIfPresent(artworkURLLarge?.absoluteString, forKey: .artworkURLLarge)
            try container.encodeIfPresent(artworkURL?.absoluteString, forKey: .artworkURL)
        }

        /// The best cover: the large one, else the small one.
        package var artwork: URL? { artworkURLLarge ?? artworkURL }
    }

    /// `current_track`; nil when the API names no track.
    package let currentTrack: Track?

    package init(currentTrack: Track?) {
        self.currentTrack = currentTrack
    }

    enum CodingKeys: String, CodingKey {
        case currentTrack = "current_track"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A `current_track` of the wrong shape (null, a string) means "no track", not a broken answer.
        currentTrack = try? container.decodeIfPresent(Track.self, forKey: .currentTrack)
    }

    /// Decodes an answer; anything that is not a JSON object is `malformedData`.
    package static func decode(_ data: Data) throws(PlaybackError) -> RadioStatus {
        do {
            return try JSONDecoder().decode(RadioStatus.self, from: data)
        } catch {
            throw PlaybackError(.malformedData, underlying: "RadioStatus: \(error)")
        }
    }
}
