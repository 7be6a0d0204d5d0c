// libebur128 (EBU R128 loudness measurement, the library FFmpeg's own ebur128 filter follows) for
// the audio engine's loudness levelling: the header as it is; Swift calls it directly.
#ifndef TONEARM_EBUR128_SHIM_H
#define TONEARM_EBUR128_SHIM_H
#include <ebur128.h>
#endif
