import Foundation
import PlayerCore

/// How the render thread paces itself.
public enum RenderMode: Sendable, Equatable {
    /// Follow the sink's clock (a sound server, or the real-time null sink).
    case realtime
    /// As fast as possible (rendering to a file): decks decode far ahead and never underrun.
    case asFastAsPossible
}
