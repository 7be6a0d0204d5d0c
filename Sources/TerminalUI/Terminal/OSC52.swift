import Foundation

/// The escape sequence that asks the terminal to put text on the system clipboard (OSC 52,
/// xterm's "manipulate selection data"): `ESC ] 52 ; c ; BASE64 BEL`. Terminals that allow it
/// (xterm with `allowWindowOps`, kitty, foot, WezTerm, tmux with `set-clipboard`) copy; the
/// others ignore it, which is why the line is also shown on the screen.
package enum OSC52 {
    /// The most text sent, UTF-8 bytes: well under the 100,000-byte limit common terminals set.
    package static let maxBytes = 8 * 1024

    /// The bytes to write; nil for text over `maxBytes` or with a control character (the line was
    /// sanitised before; this is the last guard on what reaches the terminal).
    package static func sequence(copying text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maxBytes, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        return Array("\u{1B}]52;c;".utf8) + Array(Data(bytes).base64EncodedString().utf8) + [0x07]
    }
}
