import Library
import MPDProtocol

/// How sticker values and refusals are told to an MPD client, as mpd 0.23 tells them.
enum MPDStickerAnswers {
    /// `sticker: NAME=VALUE`: the name and value joined by `=` on one field, with nothing
    /// escaped (a name holding `=` reads ambiguously in mpd too).
    static func field(_ name: String, _ value: String) -> MPDResponse.Field {
        MPDResponse.Field("sticker", "\(name)=\(value)")
    }

    static let noSuchSticker = MPDAck(.noExist, "no such sticker")
    static let noSuchSong = MPDAck(.noExist, "No such song")

    /// A refusal of the store. mpd has no bounds of its own, so they are argument errors with
    /// the bound in the text; a failing database is a system error, its path and contents left out.
    static func ack(_ error: StickerError) -> MPDAck {
        switch error {
        case .emptyName: MPDAck(.argument, "sticker name is empty")
        case .controlCharacter: MPDAck(.argument, "sticker names and values cannot hold line breaks")
        case .nameTooLong(let limit): MPDAck(.argument, "sticker name longer than \(limit) bytes")
        case .valueTooLong(let limit): MPDAck(.argument, "sticker value longer than \(limit) bytes")
        case .tooManyStickers(let limit): MPDAck(.argument, "a song has at most \(limit) stickers")
        case .store(let underlying): MPDAck(.system, "The sticker database cannot be used (\(underlying.code.typeName))")
        }
    }
}
