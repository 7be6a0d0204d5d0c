/// The name of a channel clients send each other messages on. MPD accepts only ASCII letters,
/// digits and `-_.:`, and at least one of them (`client_message_valid_channel_name`); anything
/// else, the empty name among it, is "invalid channel name". Keeping to MPD's set also keeps
/// every `channel: NAME` line a client is told one clean line.
public enum MPDChannelName {
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isAllowed)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"): true
        default: false
        }
    }
}
