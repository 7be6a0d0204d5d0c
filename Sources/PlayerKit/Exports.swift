// What an app that embeds Tonearm sees with `import PlayerKit` alone: the player model
// (PlayerCore), the player and its outputs (AudioEngine), the settings of the services it composes
// (Services, Streaming) and swift-log's `Logger`. Only their public declarations are API; the rest
// of the package is `package` access.
@_exported import AudioEngine
@_exported import Logging
@_exported import PlayerCore
@_exported import Services
@_exported import Streaming
