import ArgumentParser
import PlayerKit

/// `--output pulse | wav:PATH | wav-float:PATH | null | snapcast:tcp://HOST:PORT | snapcast:pipe:PATH`.
extension OutputChoice: ExpressibleByArgument {}
