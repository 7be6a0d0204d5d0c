import Foundation
import Media
import PlayerCore
import Services
import TestProcesses
import Testing

@testable import PlayerKit

/// The picture text front ends draw: the artwork's bytes shrunk to a fixed grid, with its average
/// colour as the accent; nothing for the default artwork.
@Suite("Artwork for text front ends", .blocking)
struct ArtworkThumbnailTests {
    @Test func aRealPictureBecomesAThumbnailWithItsAccent() throws {
        let png = try FFmpegFixture.make(["-f", "lavfi", "-i", "color=c=0xcc3300:s=96x96", "-frames:v", "1"], fileName: "cover.png").get()
        let artwork = Artwork(kind: .real, data: png, width: 96, height: 96, averageColor: RGBColor(red: 0xCC, green: 0x33, blue: 0x00))
        let picture = try #require(NowPlayingPipeline.thumbnail(of: artwork))
        #expect(picture.columns == NowPlayingPipeline.thumbnailSide && picture.rows == NowPlayingPipeline.thumbnailSide)
        #expect(picture.accent == [0xCC, 0x33, 0x00])
        // Every cell is the cover's colour (within the rounding of ffmpeg's YUV source).
        let cells = stride(from: 0, to: picture.rgb.count, by: 3).map { RGBColor(red: picture.rgb[$0], green: picture.rgb[$0 + 1], blue: picture.rgb[$0 + 2]) }
        #expect(cells.allSatisfy { $0.distance(to: RGBColor(red: 0xCC, green: 0x33, blue: 0)) <= 4 }, "\(Set(cells.map(\.hex)))")
    }

    @Test func theDefaultArtworkAndUndecodableBytesHaveNoPicture() {
        #expect(NowPlayingPipeline.thumbnail(of: .placeholder) == nil)
        let junk = Artwork(kind: .real, data: Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]), width: 1, height: 1, averageColor: RGBColor(red: 0, green: 0, blue: 0))
        #expect(NowPlayingPipeline.thumbnail(of: junk) == nil)
    }
}
