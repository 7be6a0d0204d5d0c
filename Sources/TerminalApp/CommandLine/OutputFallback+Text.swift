import PlayerKit
import Presentation

extension OutputFallback {
    /// The notice as the listener reads it, on its own line of stderr.
    func line(in language: Language) -> String {
        Texts.format(UIString.outputFellBack, in: language, file) + "\n"
    }
}
