/// The client's side of a request: a command as the line a server's tokenizer reads back as the
/// same command (every argument quoted, `"` and `\` escaped), for front ends that talk to MPD.
public enum MPDRequestEncoder {
    /// The line with its newline. A name that is not a command word, or an argument with a
    /// control character (which no line can carry), is refused rather than sent altered.
    public static func line(_ command: MPDCommand) throws(MPDRequestError) -> [UInt8] {
        let name = Array(command.name.utf8)
        guard let first = name.first else { throw .emptyLine }
        guard MPDRequestParser.isLowercaseLetter(first) else { throw .letterExpected }
        guard name.allSatisfy({ $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { throw .invalidWordCharacter }
        var bytes = name
        for argument in command.arguments {
            bytes += [0x20, 0x22]
            for byte in argument.utf8 {
                guard byte >= 0x20 || byte == 0x09, byte != 0x7F else { throw .controlCharacter }
                if byte == 0x22 || byte == 0x5C { bytes.append(0x5C) }
                bytes.append(byte)
            }
            bytes.append(0x22)
        }
        bytes.append(0x0A)
        return bytes
    }
}
