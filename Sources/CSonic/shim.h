// libsonic (Bill Cox's speech speed-up library, which Android's Media3 uses for speed) for the
// audio engine's time-stretcher: the header as it is; Swift calls it directly.
#ifndef TONEARM_SONIC_SHIM_H
#define TONEARM_SONIC_SHIM_H
#include <sonic.h>
#endif
