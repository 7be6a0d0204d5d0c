import Foundation
import Media
import PlayerCore

/// A picture for the now-playing screen, as the artwork service found it.
/// Carries the encoded bytes rather than a decoded bitmap: front ends differ in how
/// they show a picture (a terminal renders half-blocks, MPRIS passes a file), and the bytes are
/// what the cache keeps. The average colour is computed once, when the bytes are first decoded.
package struct Artwork: Sendable, Equatable {
    /// Real cover, station logo, or the default picture.
    package let kind: NowPlayingMetadata.ArtworkKind
    /// The image bytes (PNG or JPEG, magic bytes checked); nil for the default picture and for a
    /// station logo that could not be fetched.
    package let data: Data?
    package let width: Int?
    package let height: Int?
    /// The average colour of the decoded image (alpha-weighted), nil without an image.
    package let averageColor: RGBColor?

    package init(kind: NowPlayingMetadata.ArtworkKind, data: Data?, width: Int?, height: Int?, averageColor: RGBColor?) {
        self.kind = kind
        self.data = data
        self.width = width
        self.height = height
        self.averageColor = averageColor
    }

    /// The built-in default: no bytes, the front end draws its own placeholder.
    package static let placeholder = Artwork(kind: .default, data: nil, width: nil, height: nil, averageColor: nil)

    /// The same picture labelled with another kind (a fetched image used as the station's logo).
    package func with(kind: NowPlayingMetadata.ArtworkKind) -> Artwork {
        Artwork(kind: kind, data: data, width: width, height: height, averageColor: averageColor)
    }
}
