// Loads FFmpeg's libraries on first use instead of at process start. Debian's libavcodec and
// libavformat pull in about 140 libraries (every codec, network and hardware API they can use),
// which cost every run 31 MB of resident memory and most of the start-up time, although most
// commands (the library, podcasts, errors, the daemon while idle) never decode a sample.
#ifndef TONEARM_FFMPEG_LOADER_H
#define TONEARM_FFMPEG_LOADER_H

#include <stddef.h>

/// Loads libavformat, libavcodec, libswresample, libswscale and libavutil (the major versions the
/// headers name) and binds every FFmpeg function Tonearm calls. Safe to call from any thread and
/// any number of times; only the first call loads. Returns 0, or -1 with the reason (the dynamic
/// linker's text, a missing library or function) written into `error`.
int tonearm_ffmpeg_load(char *error, size_t size);

#endif
