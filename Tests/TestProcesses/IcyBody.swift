import Foundation

/// ICY bodies for the scripted servers: audio with a metadata block after every `metaint` bytes.
package enum IcyBody {
    /// `audio` with a metadata block after every `metaint` bytes: `titles[i]` in the i-th block
    /// (empty blocks after the last title).
    package static func make(_ audio: Data, metaint: Int, titles: [String]) -> Data {
        var out = Data()
        var offset = 0
        var block = 0
        while offset + metaint <= audio.count {
            out.append(audio[audio.startIndex + offset..<audio.startIndex + offset + metaint])
            offset += metaint
            out.append(contentsOf: metadataBlock(block < titles.count ? "StreamTitle='\(titles[block])';" : ""))
            block += 1
        }
        out.append(audio[(audio.startIndex + offset)...])
        return out
    }

    /// One ICY metadata block: a length byte (16-byte units) and the text padded with zeros.
    package static func metadataBlock(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        let units = (bytes.count + 15) / 16
        return [UInt8(units)] + bytes + [UInt8](repeating: 0, count: units * 16 - bytes.count)
    }
}
