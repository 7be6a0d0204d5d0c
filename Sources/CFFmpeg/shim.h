// Thin shim over FFmpeg 5.1 (Debian 12): the headers Tonearm uses, and static inline wrappers for
// the macros Swift cannot import (AVERROR(EAGAIN), AVERROR_EOF, av_err2str).
#ifndef TONEARM_CFFMPEG_SHIM_H
#define TONEARM_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
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

// Decoder helpers (FFmpegDecoder): function-like macros and compound literals Swift cannot import.
static inline int tonearm_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int tonearm_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int tonearm_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int tonearm_avprobe_score_retry(void) { return AVPROBE_SCORE_RETRY; }
/// The planes of `frame` as swr_convert's `const uint8_t **` input.
static inline const uint8_t **tonearm_frame_planes(AVFrame *frame) { return (const uint8_t **)frame->extended_data; }
/// swr_convert into one interleaved output buffer (packed formats have a single plane).
static inline int tonearm_swr_convert_packed(SwrContext *swr, void *out, int out_count, const uint8_t **in, int in_count) {
    uint8_t *planes[1] = { (uint8_t *)out };
    return swr_convert(swr, planes, out_count, in, in_count);
}
/// Drops the first `count` samples of a decoded audio frame in place by moving its plane pointers
/// (the buffers stay referenced and are released by av_frame_unref as usual).
static inline void tonearm_frame_drop_front(AVFrame *frame, int count) {
    if (count <= 0) return;
    if (count > frame->nb_samples) count = frame->nb_samples;
    int channels = frame->ch_layout.nb_channels;
    int bytes = av_get_bytes_per_sample((enum AVSampleFormat)frame->format);
    int planar = av_sample_fmt_is_planar((enum AVSampleFormat)frame->format);
    int planes = planar ? channels : 1;
    size_t step = (size_t)count * (size_t)bytes * (size_t)(planar ? 1 : channels);
    for (int i = 0; i < planes; i++) frame->extended_data[i] += step;
    if (frame->extended_data != frame->data)
        for (int i = 0; i < planes && i < AV_NUM_DATA_POINTERS; i++) frame->data[i] = frame->extended_data[i];
    frame->nb_samples -= count;
}

#endif
