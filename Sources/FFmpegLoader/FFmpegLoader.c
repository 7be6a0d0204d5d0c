// The FFmpeg functions Tonearm calls, defined here with FFmpeg's own prototypes so the Swift code
// calls them by their names: each forwards to the function found in the libraries loaded by
// `tonearm_ffmpeg_load`. The definitions are hidden, so they are never exported and never
// interpose on the libraries' calls to each other.
//
// Written by hand because no library in Debian does this for C: the usual tool (Implib.so)
// generates such stubs at build time and is not packaged. The compiler checks every definition
// against FFmpeg's header, so a prototype cannot drift from the library it forwards to.
#define _GNU_SOURCE  // PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP
#include "FFmpegLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

#define TONEARM_STRINGIFY_(x) #x
#define TONEARM_STRINGIFY(x) TONEARM_STRINGIFY_(x)
#define TONEARM_SONAME(name, major) "lib" name ".so." TONEARM_STRINGIFY(major)

// X(return type, name, (parameters), (arguments)) for functions that return a value,
// V(name, (parameters), (arguments)) for those that return nothing.
#define TONEARM_FFMPEG_FUNCTIONS(X, V)                                                                       \
    X(int, av_channel_layout_compare, (const AVChannelLayout *chl, const AVChannelLayout *chl1), (chl, chl1))   \
    X(int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src))             \
    V(av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels))      \
    V(av_channel_layout_uninit, (AVChannelLayout *channel_layout), (channel_layout))                           \
    X(AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), \
      (m, key, prev, flags))                                                                                   \
    X(int, av_find_best_stream,                                                                                \
      (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, \
       int flags),                                                                                             \
      (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))                                        \
    X(const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name))                     \
    X(AVFrame *, av_frame_alloc, (void), ())                                                                   \
    V(av_frame_free, (AVFrame **frame), (frame))                                                               \
    X(int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align))                                   \
    V(av_frame_unref, (AVFrame *frame), (frame))                                                               \
    V(av_free, (void *ptr), (ptr))                                                                             \
    X(int, av_get_bytes_per_sample, (enum AVSampleFormat sample_fmt), (sample_fmt))                            \
    V(av_log_set_level, (int level), (level))                                                                  \
    X(void *, av_malloc, (size_t size), (size))                                                                \
    X(int, av_new_packet, (AVPacket *pkt, int size), (pkt, size))                                              \
    X(int, av_opt_set, (void *obj, const char *name, const char *val, int search_flags), (obj, name, val, search_flags)) \
    X(AVPacket *, av_packet_alloc, (void), ())                                                                 \
    V(av_packet_free, (AVPacket **pkt), (pkt))                                                                 \
    V(av_packet_unref, (AVPacket *pkt), (pkt))                                                                 \
    X(const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt))                \
    X(int, av_probe_input_buffer2,                                                                             \
      (AVIOContext *pb, const AVInputFormat **fmt, const char *url, void *logctx, unsigned int offset,          \
       unsigned int max_probe_size),                                                                           \
      (pb, fmt, url, logctx, offset, max_probe_size))                                                          \
    X(int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))                                       \
    X(int, av_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))                                      \
    X(int, av_write_trailer, (AVFormatContext *s), (s))                                                        \
    X(int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq))                           \
    X(int, av_sample_fmt_is_planar, (enum AVSampleFormat sample_fmt), (sample_fmt))                            \
    X(int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags),                \
      (s, stream_index, timestamp, flags))                                                                     \
    X(int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))         \
    X(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))                               \
    X(int, avcodec_decode_subtitle2, (AVCodecContext *avctx, AVSubtitle *sub, int *got_sub_ptr, AVPacket *avpkt), \
      (avctx, sub, got_sub_ptr, avpkt))                                                                        \
    X(const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id))                            \
    X(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))                                        \
    V(avcodec_flush_buffers, (AVCodecContext *avctx), (avctx))                                                 \
    V(avcodec_free_context, (AVCodecContext **avctx), (avctx))                                                 \
    X(int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),               \
      (avctx, codec, options))                                                                                 \
    X(int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par))  \
    X(int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame))                     \
    X(int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt))                \
    X(unsigned, avcodec_version, (void), ())                                                                   \
    X(AVFormatContext *, avformat_alloc_context, (void), ())                                                   \
    X(int, avformat_alloc_output_context2,                                                                     \
      (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),    \
      (ctx, oformat, format_name, filename))                                                                   \
    V(avformat_free_context, (AVFormatContext *s), (s))                                                        \
    X(AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c))                         \
    X(int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options))                  \
    V(avformat_close_input, (AVFormatContext **s), (s))                                                        \
    X(int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options))            \
    X(int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), \
      (ps, url, fmt, options))                                                                                 \
    X(int, avformat_seek_file,                                                                                 \
      (AVFormatContext *s, int stream_index, int64_t min_ts, int64_t ts, int64_t max_ts, int flags),            \
      (s, stream_index, min_ts, ts, max_ts, flags))                                                            \
    X(unsigned, avformat_version, (void), ())                                                                  \
    X(AVIOContext *, avio_alloc_context,                                                                       \
      (unsigned char *buffer, int buffer_size, int write_flag, void *opaque,                                   \
       int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),                                           \
       int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),                                          \
       int64_t (*seek)(void *opaque, int64_t offset, int whence)),                                             \
      (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))                              \
    X(int, avio_close_dyn_buf, (AVIOContext *s, uint8_t **pbuffer), (s, pbuffer))                              \
    V(avio_context_free, (AVIOContext **s), (s))                                                               \
    X(int, avio_open_dyn_buf, (AVIOContext **s), (s))                                                          \
    X(int64_t, avio_seek, (AVIOContext *s, int64_t offset, int whence), (s, offset, whence))                   \
    V(avsubtitle_free, (AVSubtitle *sub), (sub))                                                               \
    X(int, swr_alloc_set_opts2,                                                                                \
      (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, \
       AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset,     \
       void *log_ctx),                                                                                         \
      (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, \
       log_ctx))                                                                                               \
    X(int, swr_convert, (struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in, int in_count),  \
      (s, out, out_count, in, in_count))                                                                       \
    V(swr_free, (struct SwrContext **s), (s))                                                                  \
    X(int, swr_get_out_samples, (struct SwrContext *s, int in_samples), (s, in_samples))                       \
    X(int, swr_init, (struct SwrContext *s), (s))                                                              \
    X(int, swr_set_matrix, (struct SwrContext *s, const double *matrix, int stride), (s, matrix, stride))      \
    X(unsigned, swresample_version, (void), ())                                                                \
    V(sws_freeContext, (struct SwsContext *swsContext), (swsContext))                                          \
    X(const int *, sws_getCoefficients, (int colorspace), (colorspace))                                        \
    X(struct SwsContext *, sws_getContext,                                                                     \
      (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat,       \
       int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param),                            \
      (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))                      \
    X(int, sws_isSupportedInput, (enum AVPixelFormat pix_fmt), (pix_fmt))                                      \
    X(int, sws_scale_frame, (struct SwsContext *c, AVFrame *dst, const AVFrame *src), (c, dst, src))           \
    X(int, sws_setColorspaceDetails,                                                                           \
      (struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4], int dstRange, int brightness, \
       int contrast, int saturation),                                                                          \
      (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))                             \
    X(unsigned, swscale_version, (void), ())

// One pointer per function, filled once by `load_once`.
#define TONEARM_POINTER(ret, name, params, args) static ret(*tonearm_real_##name) params;
#define TONEARM_VOID_POINTER(name, params, args) static void(*tonearm_real_##name) params;
TONEARM_FFMPEG_FUNCTIONS(TONEARM_POINTER, TONEARM_VOID_POINTER)

static pthread_once_t tonearm_once = PTHREAD_ONCE_INIT;
// Written once, with release order, after every pointer is set; read with acquire order.
static int tonearm_loaded = 0;
static char tonearm_load_error[512];

// Loading and exiting exclude each other. `exit` runs every loaded library's destructors and marks
// each uninitialised (glibc's `_dl_fini`) without waiting for other threads, so a `dlopen` still
// under way on another thread would run again the constructors of the libraries it shares with
// those already loaded: libgomp (under libswresample's libsoxr) aborts on that ("goacc_register:
// Assertion `!dispatchers[disp->type]' failed"), and a listener who quits while a stream opens
// would see a crash. An exit handler, registered at start-up and so run before the dynamic
// linker's own, waits for a load under way and keeps any later one from starting. Recursive, so an
// exit called from within a load (a library's constructor) cannot wait for itself.
static pthread_mutex_t tonearm_load_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static int tonearm_exiting = 0;

static void tonearm_stop_loading(void) {
    pthread_mutex_lock(&tonearm_load_lock);
    __atomic_store_n(&tonearm_exiting, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&tonearm_load_lock);
}

// Runs with the program's other initialisers, after the C library registered the dynamic
// linker's exit handler: handlers run in reverse order, so this one runs first.
__attribute__((constructor)) static void tonearm_register_exit_handler(void) { atexit(tonearm_stop_loading); }

static void load_libraries(void);

static void load_once(void) {
    pthread_mutex_lock(&tonearm_load_lock);
    if (__atomic_load_n(&tonearm_exiting, __ATOMIC_ACQUIRE)) {
        snprintf(tonearm_load_error, sizeof tonearm_load_error, "the program is exiting");
    } else {
        load_libraries();
    }
    pthread_mutex_unlock(&tonearm_load_lock);
}

// libavformat brings libavcodec, libswresample and libavutil as its own dependencies; libswscale
// is separate. A function is looked up in each in turn.
static void load_libraries(void) {
    static const char *const libraries[] = {
        TONEARM_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR), TONEARM_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
        TONEARM_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR), TONEARM_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR),
        TONEARM_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
    };
    enum { count = sizeof libraries / sizeof libraries[0] };
    void *handles[count];
    for (size_t i = 0; i < count; i++) {
        // Lazy binding, as the dynamic linker does for libraries linked at build time.
        handles[i] = dlopen(libraries[i], RTLD_LAZY | RTLD_LOCAL);
        if (handles[i] == NULL) {
            const char *reason = dlerror();
            // The soname first: the dynamic linker's text starts with a path, which logs redact.
            snprintf(tonearm_load_error, sizeof tonearm_load_error, "%s: %s", libraries[i], reason ? reason : "not found");
            return;
        }
    }
#define TONEARM_RESOLVE(name)                                                                                \
    do {                                                                                                     \
        void *found = NULL;                                                                                  \
        for (size_t i = 0; i < count && found == NULL; i++) found = dlsym(handles[i], #name);                \
        if (found == NULL) {                                                                                 \
            snprintf(tonearm_load_error, sizeof tonearm_load_error, "FFmpeg's libraries have no %s", #name); \
            return;                                                                                          \
        }                                                                                                    \
        memcpy(&tonearm_real_##name, &found, sizeof found);                                                  \
    } while (0);
#define TONEARM_RESOLVE_VALUE(ret, name, params, args) TONEARM_RESOLVE(name)
#define TONEARM_RESOLVE_VOID(name, params, args) TONEARM_RESOLVE(name)
    TONEARM_FFMPEG_FUNCTIONS(TONEARM_RESOLVE_VALUE, TONEARM_RESOLVE_VOID)
    __atomic_store_n(&tonearm_loaded, 1, __ATOMIC_RELEASE);
}

int tonearm_ffmpeg_load(char *error, size_t size) {
    pthread_once(&tonearm_once, load_once);
    if (__atomic_load_n(&tonearm_loaded, __ATOMIC_ACQUIRE)) return 0;
    if (error != NULL && size > 0) snprintf(error, size, "%s", tonearm_load_error);
    return -1;
}

// Every Swift entry point into FFmpeg loads first and turns a failure into a typed error; this is
// the guard for a call that did not: the process cannot go on without the function it called.
static void require_loaded(void) {
    if (__builtin_expect(__atomic_load_n(&tonearm_loaded, __ATOMIC_ACQUIRE), 1)) return;
    char reason[512];
    if (tonearm_ffmpeg_load(reason, sizeof reason) != 0) {
        // Refused because the program is exiting: this thread has nothing left to do, and
        // aborting would turn a clean exit into a crash.
        if (__atomic_load_n(&tonearm_exiting, __ATOMIC_ACQUIRE)) {
            for (;;) pause();
        }
        fprintf(stderr, "tonearm: cannot load FFmpeg's libraries: %s\n", reason);
        abort();
    }
}

#define TONEARM_HIDDEN __attribute__((visibility("hidden")))
#define TONEARM_FORWARD(ret, name, params, args)                                                             \
    TONEARM_HIDDEN ret name params {                                                                         \
        require_loaded();                                                                                    \
        return tonearm_real_##name args;                                                                     \
    }
#define TONEARM_FORWARD_VOID(name, params, args)                                                             \
    TONEARM_HIDDEN void name params {                                                                        \
        require_loaded();                                                                                    \
        tonearm_real_##name args;                                                                            \
    }
TONEARM_FFMPEG_FUNCTIONS(TONEARM_FORWARD, TONEARM_FORWARD_VOID)
