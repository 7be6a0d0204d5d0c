import ArgumentParser
import PlayerKit

/// `--output pulse | wav:PATH | wav-float:PATH | null | snapcast:tcp://HOST:PORT | snapcast:pipe:PATH | fifo:PATH`,
/// `--also-output fifo:PATH`.
extension OutputChoice: ExpressibleByArgument {}
