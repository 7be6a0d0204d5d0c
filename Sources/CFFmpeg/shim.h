// Thin shim over FFmpeg 5.1 (Debian 12): the headers Tonearm uses, and static inline wrappers for
// the macros Swift cannot import (AVERROR(EAGAIN), AVERROR_EOF, av_err2str).
#ifndef TONEARM_CFFMPEG_SHIM_H
#define TONEARM_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>

static inline int tonearm_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int tonearm_averror_eof(void) { return AVERROR_EOF; }
static inline int tonearm_averror(int posix_errno) { return AVERROR(posix_errno); }
static inline int tonearm_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int tonearm_averror_exit(void) { return AVERROR_EXIT; }
static inline int tonearm_averror_eof_or_again(int code) { return code == AVERROR_EOF || code == AVERROR(EAGAIN); }
/// Writes FFmpeg's text for `code` into `buffer` (at least AV_ERROR_MAX_STRING_SIZE bytes).
static inline void tonearm_av_strerror(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }
static inline int64_t tonearm_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational tonearm_av_time_base_q(void) { return AV_TIME_BASE_Q; }

#endif
