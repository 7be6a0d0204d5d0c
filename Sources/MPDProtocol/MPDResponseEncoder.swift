/// The bytes the server sends. Every line ends in exactly one newline: a line break inside a key,
/// a value or an error message becomes a space, so no backend text can forge an `OK` or a field.
public enum MPDResponseEncoder {
    public static let ok: [UInt8] = Array("OK\n".utf8)
    public static let listOK: [UInt8] = Array("list_OK\n".utf8)

    /// The first line a client reads, naming the protocol version the server speaks.
    public static func greeting(version: String) -> [UInt8] { line("OK MPD \(version)") }

    /// The fields as `key: value` lines, then the binary part as MPD sends it (`binary: N`, the
    /// bytes as they are, a newline), without the closing `OK`.
    public static func fields(_ response: MPDResponse) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in response.fields {
            appendOneLine(field.key, to: &bytes)
            bytes += [0x3A, 0x20]
            appendOneLine(field.value, to: &bytes)
            bytes.append(0x0A)
        }
        if let binary = response.binary {
            bytes += Array("binary: \(binary.count)\n".utf8)
            bytes += binary
            bytes.append(0x0A)
        }
        return bytes
    }

    /// The `ACK [code@index] {command} message` line.
    public static func ack(_ ack: MPDAck) -> [UInt8] { line(ack.line) }

    /// One `changed: NAME` line per subsystem, in MPD's order, and the `OK` that ends an `idle`.
    public static func idleAnswer(_ changed: Set<MPDSubsystem>) -> [UInt8] {
        var bytes: [UInt8] = []
        for subsystem in MPDSubsystem.protocolOrder where changed.contains(subsystem) {
            bytes += Array("changed: \(subsystem.rawValue)\n".utf8)
        }
        return bytes + ok
    }

    private static func line(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendOneLine(text, to: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    private static func appendOneLine(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 { bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
    }
}
